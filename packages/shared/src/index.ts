export * from './signing.js';
export * from './clock.js';
export * from './db/db.js';
export { openTestDb } from './db/test-db.js';
export * from './env.js';
