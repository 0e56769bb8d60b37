import type { Logger } from 'pino';
import type { RecognitionConfig } from './config.js';
import { backgroundLog, createServiceLogger } from './http/logger.js';
import type { StartRecognitionOptions } from './server.js';

/**
 * The options of {@link startRecognitionService} from the parsed configuration: one mapping shared by the
 * production entry (`main.ts`) and `npm start` (`scripts/start.ts`), so every variable README lists (AI_*,
 * RECOGNITION_WORKERS, RECOGNITION_HOST, RECOGNITION_HIGH_SLOTS, …) works the same in both. Production adds
 * nothing; `npm start` adds only its demo key and the loopback allowance for its own receiver.
 */
export function serviceOptionsFromConfig(config: RecognitionConfig, logger: Logger = createServiceLogger(config.logLevel)): StartRecognitionOptions {
  return {
    dataDir: config.dataDir,
    port: config.port,
    host: config.host,
    databaseUrl: config.databaseUrl,
    ai: config.ai,
    workers: config.workers,
    highSlots: config.highSlots,
    taskMemoryMb: config.taskMemoryMb,
    tesseractMemoryMb: config.tesseractMemoryMb,
    s3: config.s3,
    ocrLanguages: config.ocrLanguages,
    allowLoopbackCallbacks: config.allowLoopbackCallbacks,
    logger,
    log: backgroundLog(logger),
    edo: config.edo,
    admin: config.admin,
    trustProxy: config.trustProxy,
    updXsd: config.updXsd,
    imageRetentionDays: config.imageRetentionDays,
  };
}
