import { systemClock, type Clock } from '@app/shared';
import { createRecognitionServices } from './app.js';
import type { AiConfig, EdoConfig } from './config.js';
import { openRecognitionDb } from './db.js';
import type { RecognitionEngine } from './engine/engine.port.js';
import { cachedProbe, pooledOcrEngine, tesseractProbe } from './engine/pool/pooled-engine.js';
import { startBackgroundLoops } from './jobs/background-loops.js';
import { aiEngineOn, backgroundPool, commonAppDeps } from './process-deps.js';
import type { S3Config } from './storage/s3-file-store.js';

/** Options of a worker-only process (the recognition-worker entry, `worker.ts`). */
export interface StartRecognitionWorkersOptions {
  /** Root data folder: uploads are read from `<dataDir>/recognition/files` (shared with the API processes). */
  dataDir: string;
  /** PostgreSQL URL (schema `recognition`), shared with the API processes. Required in production: PGlite allows one process per folder. */
  databaseUrl?: string;
  /** Recognition workers in this process (RECOGNITION_WORKERS, default 2, at least 1). */
  workers?: number;
  /** Tesseract languages of the local engine (RECOGNITION_OCR_LANGUAGES: `rus`, `eng` or `rus+eng`; default `rus`). */
  ocrLanguages?: string;
  /** V8 heap cap per pool thread, MB (RECOGNITION_TASK_MEMORY_MB). */
  taskMemoryMb?: number;
  /** Address-space limit of each Tesseract process, MB (RECOGNITION_TESSERACT_MEMORY_MB; 0 or absent: none). */
  tesseractMemoryMb?: number;
  /** Uploads in an S3-compatible object store (RECOGNITION_S3_*); absent: `<dataDir>/recognition/files`. */
  s3?: S3Config;
  /** AI adapter (AI_*); when given, it does the recognition. */
  ai?: AiConfig;
  /** Recognition engine (tests); default the local OCR engine on a worker pool. */
  engine?: RecognitionEngine;
  allowLoopbackCallbacks?: boolean;
  /** Page images of finished documents are deleted after this many days (RECOGNITION_IMAGE_RETENTION_DAYS). */
  imageRetentionDays?: number;
  /** E-document master key source (EDO_MASTER_KEY or the data folder's key); workers never call the operator. */
  edo?: Partial<EdoConfig>;
  log?: (msg: string, extra: object) => void;
  clock?: Clock;
  /** Real-time pause of an idle worker or callback poller, ms (default 1000). */
  pollMs?: number;
  /** Job lease, ms (default 2 min); multi-process tests shorten it to stall a worker past it quickly. */
  leaseMs?: number;
}

/** A running worker-only process. */
export interface RunningRecognitionWorkers {
  /**
   * Stops polling, releases the documents in progress at once (uncharged, their pool tasks and Tesseract
   * processes killed), waits for the callbacks in flight, closes the pool and the database.
   */
  close(): Promise<void>;
}

/**
 * Starts recognition workers without HTTP, so workers scale apart from the API (run the API with
 * RECOGNITION_WORKERS=0 and as many worker processes as the OCR load needs). Each worker claims queued documents
 * with `FOR UPDATE SKIP LOCKED` and a lease (jobs/queue.repo.ts), so any number of workers in any number of
 * processes on one PostgreSQL never process a document twice while its lease holds. Also sends the callbacks and
 * runs the image retention, as the API processes do (both are safe to run in several processes).
 */
export async function startRecognitionWorkers(opts: StartRecognitionWorkersOptions): Promise<RunningRecognitionWorkers> {
  const clock = opts.clock ?? systemClock;
  const workerCount = Math.max(1, opts.workers ?? 2);
  const db = await openRecognitionDb(opts);
  const pool = opts.engine ? null : backgroundPool(opts, workerCount);
  const localEngine = opts.engine ?? pooledOcrEngine(pool!, cachedProbe(tesseractProbe(opts.ocrLanguages), clock));
  const aiEngine = pool ? aiEngineOn(pool, opts.ai, opts.log) : undefined;
  const allowLoopback = opts.allowLoopbackCallbacks ?? false;
  const deps = commonAppDeps({ ...opts, db, localEngine, aiEngine, clock, allowLoopbackCallbacks: allowLoopback });
  const services = createRecognitionServices(deps);
  const loops = startBackgroundLoops({
    services,
    workers: [],
    workerCount,
    clock,
    log: opts.log,
    pollMs: opts.pollMs ?? 1000,
    leaseMs: opts.leaseMs,
    allowLoopbackCallbacks: allowLoopback,
  });
  return {
    async close() {
      await loops.stop();
      await pool?.close();
      await db.close();
    },
  };
}
