import type { Clock } from '@app/shared';
import type { ProcessingResult } from '../documents/documents.types.js';
import { deadlineSignal, realScheduler, whenAborted, type Scheduler } from '../time/scheduler.js';
import { timedOrFailed, type DocumentProcessor } from './document-processor.js';
import { holdLease, JOB_LEASE_MS } from './lease.js';
import type { QueueRepo } from './queue.repo.js';

export { JOB_LEASE_MS };
/** A document whose worker died (or found the engine unavailable) this many times is failed, not retried forever. */
export const MAX_JOB_ATTEMPTS = 3;
/** Wait before retrying a document whose engine was unavailable. */
export const ENGINE_RETRY_DELAY_MS = 60_000;
/**
 * Worker-side timeout of one job (issue 11, item 3): 5 pages × the slowest tier (photo, ~10 s p95 per page, read
 * twice when tilted) is ~100 s on an idle core; 10 minutes leaves room for a loaded machine and still ends a
 * stuck job. The document is then failed with RECOGNITION_TIMEOUT and its pool task killed.
 */
export const JOB_TIMEOUT_MS = 10 * 60 * 1000;

/** Dependencies of {@link runWorkerStep}; `scheduler` defaults to real timers, `jobTimeoutMs` to {@link JOB_TIMEOUT_MS}. */
export interface WorkerDeps {
  queue: QueueRepo;
  processor: DocumentProcessor;
  clock: Clock;
  scheduler?: Scheduler;
  jobTimeoutMs?: number;
  log?: (msg: string, extra: object) => void;
}

class JobTimedOut extends Error {}

/**
 * One worker step: claim the next document by the fair order of {@link QueueRepo.claim}, recognise it in a hard
 * race with the job timeout while renewing its lease, finish. An unavailable engine puts the document back for
 * {@link ENGINE_RETRY_DELAY_MS}, at most 3 attempts in all. Resolves false when nothing was due. Several workers
 * (and instances) run this concurrently on one database.
 */
export async function runWorkerStep(deps: WorkerDeps): Promise<boolean> {
  const scheduler = deps.scheduler ?? realScheduler;
  const doc = await deps.queue.claim(deps.clock.now(), JOB_LEASE_MS);
  if (!doc) return false;
  if (doc.attempts > MAX_JOB_ATTEMPTS) {
    await deps.processor.finish(doc, {
      ok: false,
      code: 'RECOGNITION_FAILED',
      message: `engine_error: processing was interrupted ${MAX_JOB_ATTEMPTS} times`,
      processingTimeMs: 0,
    });
    return true;
  }
  const started = deps.clock.now().getTime();
  const timeout = deadlineSignal(scheduler, deps.clock, new Date(started + (deps.jobTimeoutMs ?? JOB_TIMEOUT_MS)));
  const stopLease = holdLease({ ...deps, scheduler }, doc.id);
  let result: ProcessingResult;
  try {
    result = await Promise.race([
      deps.processor.recognize(doc, timeout.signal),
      whenAborted<ProcessingResult>(timeout.signal, () => new JobTimedOut()),
    ]);
  } catch (err) {
    if (!(err instanceof JobTimedOut)) throw err;
    deps.log?.('job timed out', { documentId: doc.id, timeoutMs: deps.jobTimeoutMs ?? JOB_TIMEOUT_MS });
    result = timedOrFailed('timeout', deps.clock.now().getTime() - started);
  } finally {
    stopLease();
    timeout.cancel();
  }
  if (!result.ok && result.retryable && doc.attempts < MAX_JOB_ATTEMPTS) {
    // The engine being down is not the document's fault: try again later rather than fail it.
    await deps.queue.release(doc.id, new Date(deps.clock.now().getTime() + ENGINE_RETRY_DELAY_MS));
    return true;
  }
  await deps.processor.finish(doc, result);
  return true;
}
