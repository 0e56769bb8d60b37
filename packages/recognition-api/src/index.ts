/**
 * Public surface of the Document Recognition API (`@app/recognition-api`): what scripts, benchmarks and the demo
 * use. `app.ts` builds the Fastify app, `server.ts` starts the service (database, migrations, workers, callback
 * sender, listener), `main.ts` is the production process entry.
 */
export { buildRecognitionApp, createRecognitionServices, type RecognitionAppDeps } from './app.js';
export { startRecognitionService, type StartRecognitionOptions, type RunningRecognitionService } from './server.js';
export { serviceOptionsFromConfig } from './entry-options.js';
export { createServiceLogger } from './http/logger.js';
export {
  loadRecognitionConfig,
  loadEdoConfig,
  ConfigError,
  type RecognitionConfig,
  type AiConfig,
  type AdminConfig,
  type EdoConfig,
} from './config.js';
export { openRecognitionDb, MIGRATIONS_DIR } from './db.js';
export { recognitionOpenApiDocument } from './openapi-document.js';
export { KeysRepo, API_SCOPES, type ApiScope } from './keys/keys.repo.js';
export { DIADOC_DEFAULTS, type EdoConnectionAdmin, type EdoConnectionInput, type EdoConnectionView } from './edo/edo-connection.service.js';
export { diadocOperatorFactory } from './edo/diadoc/diadoc-factory.js';
export { runReadOnlyChecks } from './edo/read-only-checks.js';
export { simulatorUpdWriter } from './formalized/simulator-writer.js';
export { LocalFileStore, type FileStore } from './storage/file-store.js';
export { AiEngine } from './engine/ai/ai-engine.js';
export { createLocalOcrEngine, type LocalOcrEngine } from './engine/ocr/index.js';
export * from './engine/engine.port.js';
