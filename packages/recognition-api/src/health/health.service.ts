import type { Db } from '@app/shared';
import type { EngineHealth, RecognitionEngine } from '../engine/engine.port.js';
import type { QueueRepo } from '../jobs/queue.repo.js';

/** Version reported by health (Spec: Versioning, `version`). */
export const SERVICE_VERSION = '1.0.0';

/** Exactly the spec's health fields (Spec: Health). */
export interface HealthReport {
  status: 'ok' | 'degraded';
  version: string;
  /** The local OCR engine ("recognition worker"): ok | unavailable. */
  python_worker: EngineHealth;
  /** The AI adapter: ok | unavailable | not_configured. */
  ai_api: EngineHealth;
  database: 'connected' | 'disconnected';
  /** The job queue lives in the database, so it follows `database`. */
  queue_store: 'connected' | 'disconnected';
  queue_size: number;
  avg_processing_time_ms: number;
}

const safe = async (e: RecognitionEngine | undefined, fallback: EngineHealth): Promise<EngineHealth> =>
  e ? e.health().catch((): EngineHealth => 'unavailable') : fallback;

/**
 * Builds the health report. `degraded` (HTTP 503) when the database is unreachable or the engine in use (the
 * AI adapter when configured, else the local OCR engine) is not `ok`; the other engine is reported but does not
 * degrade the service, because it is not on the recognition path.
 */
export async function checkHealth(deps: {
  /** Readiness of the database (the port's `ping`; no SQL here). */
  db: Pick<Db, 'ping'>;
  queue: QueueRepo;
  localEngine: RecognitionEngine;
  aiEngine?: RecognitionEngine;
}): Promise<HealthReport> {
  let database: HealthReport['database'] = 'connected';
  let queueSize = 0;
  let avg = 0;
  try {
    await deps.db.ping();
    queueSize = await deps.queue.size();
    avg = await deps.queue.avgProcessingMs();
  } catch {
    database = 'disconnected';
  }
  const [local, ai] = await Promise.all([safe(deps.localEngine, 'unavailable'), safe(deps.aiEngine, 'not_configured')]);
  const active = deps.aiEngine ? ai : local;
  return {
    status: database === 'connected' && active === 'ok' ? 'ok' : 'degraded',
    version: SERVICE_VERSION,
    python_worker: local,
    ai_api: ai,
    database,
    queue_store: database,
    queue_size: queueSize,
    avg_processing_time_ms: avg,
  };
}
