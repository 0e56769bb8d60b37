import { randomIds, type Clock, type Db } from '@app/shared';
import type { RecognitionAppDeps } from './app.js';
import type { AiConfig, EdoConfig, S3Config } from './config.js';
import { loadMasterKey } from './edo/master-key.js';
import { AiEngine } from './engine/ai/ai-engine.js';
import type { RecognitionEngine } from './engine/engine.port.js';
import { RecognitionPool } from './engine/pool/recognition-pool.js';
import { createFileStore } from './storage/file-store-factory.js';

/** The pool settings both process kinds take from their options (RECOGNITION_* variables). */
export interface PoolSettings {
  ocrLanguages?: string;
  taskMemoryMb?: number;
  tesseractMemoryMb?: number;
}

/** The worker pool of queued work (its Tesseract niced, so high requests get the CPU first), `threads` threads. */
export function backgroundPool(settings: PoolSettings, threads: number): RecognitionPool {
  return new RecognitionPool({
    name: 'background',
    threads,
    niceness: 10,
    maxHeapMb: settings.taskMemoryMb,
    languages: settings.ocrLanguages,
    tesseractMemoryMb: settings.tesseractMemoryMb,
  });
}

/** The AI engine when configured, shrinking pages on `pool` before sending them; undefined otherwise. */
export function aiEngineOn(pool: RecognitionPool, ai: AiConfig | undefined, log?: (msg: string, extra: object) => void): AiEngine | undefined {
  return ai ? new AiEngine(ai, { shrink: (images, signal) => pool.shrinkForAi(images, signal), log }) : undefined;
}

/** What the API process (server.ts) and the worker process (worker-service.ts) give the app alike. */
export interface CommonDepsInput {
  db: Db;
  dataDir: string;
  s3?: S3Config;
  localEngine: RecognitionEngine;
  aiEngine?: RecognitionEngine;
  clock: Clock;
  allowLoopbackCallbacks: boolean;
  log?: (msg: string, extra: object) => void;
  imageRetentionDays?: number;
  edo?: Partial<EdoConfig>;
}

/** The app dependencies both process kinds build the same way; each adds its own (HTTP, lanes, panel). */
export function commonAppDeps(o: CommonDepsInput): RecognitionAppDeps {
  return {
    db: o.db,
    files: createFileStore(o.dataDir, o.s3),
    localEngine: o.localEngine,
    aiEngine: o.aiEngine,
    clock: o.clock,
    ids: randomIds,
    allowLoopbackCallbacks: o.allowLoopbackCallbacks,
    log: o.log,
    imageRetentionDays: o.imageRetentionDays,
    edo: { masterKey: loadMasterKey(o.edo?.masterKey, o.dataDir), timeoutMs: o.edo?.timeoutMs },
  };
}
