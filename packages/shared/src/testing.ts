/** Test support of the shared package (a separate entry, `@app/shared/testing`, so no production code imports it). */
export { openTestDb } from './db/test-db.js';
export { importCycles, importSpecifiers, relativeImports, topFolders, unitOf, upwardImports } from './import-graph.js';
export type { ImportEdge } from './import-graph.js';
