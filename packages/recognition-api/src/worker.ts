import { runMain } from '@app/shared';
import { loadRecognitionConfig } from './config.js';
import { backgroundLog, createServiceLogger } from './http/logger.js';
import { startRecognitionWorkers } from './worker-service.js';

/**
 * Worker-only production entry (recognition-worker), `node packages/recognition-api/dist/worker.js` after `npm run build`: recognition
 * workers, callbacks and image retention from the environment (config.ts), no HTTP listener. Run the API with
 * RECOGNITION_WORKERS=0 and any number of these on the same DATABASE_URL and shared DATA_DIR files. Exit codes as
 * `runMain` of @app/shared: 0 stopped, 1 failure or grace passed, 2 bad configuration.
 */
await runMain(async () => {
  const config = loadRecognitionConfig();
  if (!config.databaseUrl)
    console.error('recognition-worker: without DATABASE_URL it uses the embedded PGlite, which one process at a time can open');
  const log = backgroundLog(createServiceLogger(config.logLevel));
  const workers = await startRecognitionWorkers({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    workers: config.workers,
    taskMemoryMb: config.taskMemoryMb,
    tesseractMemoryMb: config.tesseractMemoryMb,
    s3: config.s3,
    ocrLanguages: config.ocrLanguages,
    ai: config.ai,
    allowLoopbackCallbacks: config.allowLoopbackCallbacks,
    imageRetentionDays: config.imageRetentionDays,
    edo: config.edo,
    log,
  });
  // Printed once the workers poll: supervisors and the multi-process tests wait for it.
  console.log(`recognition-worker running ${Math.max(1, config.workers)} workers`);
  return { service: workers, options: { graceMs: config.shutdownGraceMs, log: (msg, extra) => log(`recognition-worker ${msg}`, extra ?? {}) } };
});
