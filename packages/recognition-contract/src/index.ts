/**
 * `@app/recognition-contract`: the Document Recognition API's wire shapes as TypeBox schemas with their `Static`
 * types, and nothing else (no framework, no I/O). The service's routes, engine port and callbacks, the AI answer
 * schema and docgen's ground truth derive from these; adding a recognised field is one edit in recognized-data.ts
 * (plus the extractor that fills it).
 */
export * from './callback-payload.js';
export * from './document-record.js';
export * from './recognized-data.js';
