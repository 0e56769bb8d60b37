/** Test support of the shared package (a separate entry, `@app/shared/testing`, so no production code imports it). */
export { openTestDb } from './db/test-db.js';
