import type { Clock } from '@app/shared';
import type { DocumentRecord, ProcessingResult } from '../documents/documents.types.js';
import { deadlineSignal, realScheduler, whenAborted, type Scheduler } from '../time/scheduler.js';
import { timedOrFailed, type DocumentProcessor } from './document-processor.js';
import { JobGate } from './job-gate.js';
import { holdLease, JOB_LEASE_MS } from './lease.js';
import type { QueueRepo } from './queue.repo.js';

export { JOB_LEASE_MS };
/** A document whose worker died (or found the engine unavailable) this many times is failed, not retried forever. */
export const MAX_JOB_ATTEMPTS = 3;
/** Wait before retrying a document whose engine was unavailable. */
export const ENGINE_RETRY_DELAY_MS = 60_000;
/**
 * Worker-side timeout of one job (docs/decisions.md "Claim order and job timeout"): 5 pages × the slowest tier (photo, ~10 s p95 per page, read
 * twice when tilted) is ~100 s on an idle core; 10 minutes leaves room for a loaded machine and still ends a
 * stuck job. The document is then failed with RECOGNITION_TIMEOUT and its pool task killed.
 */
export const JOB_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Dependencies of {@link runWorkerStep}; `scheduler` defaults to real timers, `jobTimeoutMs` to {@link JOB_TIMEOUT_MS},
 * `leaseMs` to {@link JOB_LEASE_MS}. `shutdown` aborts when the process is stopping (SIGTERM): the job in hand is
 * stopped and its document released to `queued` at once without charging the attempt (docs/decisions.md "Shutdown releases jobs").
 */
export interface WorkerDeps {
  queue: QueueRepo;
  processor: DocumentProcessor;
  clock: Clock;
  scheduler?: Scheduler;
  jobTimeoutMs?: number;
  leaseMs?: number;
  shutdown?: AbortSignal;
  /** The process's jobs, shared by its workers (docs/decisions.md "Poison documents run alone"); without one, every claim is made alone. */
  gate?: JobGate;
  log?: (msg: string, extra: object) => void;
}

class JobTimedOut extends Error {}
class JobStopped extends Error {
  constructor(readonly why: 'lease lost' | 'shutdown') {
    super(why);
  }
}

/**
 * One worker step: claim the next document by the fair order of {@link QueueRepo.claim}, recognise it in a hard
 * race with the job timeout while renewing its lease, finish. Every write names the claim's fencing token, and a
 * renewal that finds the document taken over aborts the job without writing anything (docs/decisions.md "Job fencing"). An
 * unavailable engine puts the document back for {@link ENGINE_RETRY_DELAY_MS}, at most 3 attempts in all; a
 * shutdown puts it back at once, uncharged. Resolves false when nothing was due. Several workers (and instances)
 * run this concurrently on one database.
 */
export async function runWorkerStep(deps: WorkerDeps): Promise<boolean> {
  if (deps.shutdown?.aborted) return false;
  const slot = (deps.gate ?? new JobGate()).enter();
  if (!slot) return false;
  try {
    const doc = await deps.queue.claim(deps.clock.now(), deps.leaseMs ?? JOB_LEASE_MS, { alone: slot.alone });
    if (!doc) return false;
    slot.isolated(doc.isolate && slot.alone);
    if (doc.isolate) deps.log?.('document re-run alone after its process died', { documentId: doc.id, attempts: doc.attempts });
    return await runJob(deps, doc);
  } finally {
    slot.leave();
  }
}

/** Recognises a claimed document and records the outcome (see {@link runWorkerStep}). */
async function runJob(deps: WorkerDeps, doc: DocumentRecord): Promise<boolean> {
  const scheduler = deps.scheduler ?? realScheduler;
  const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
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
  const lease = holdLease({ ...deps, scheduler, leaseMs }, doc);
  const stopped = [lease.lost, ...(deps.shutdown ? [deps.shutdown] : [])];
  // The engine stops (its pool task and Tesseract children are killed) on the timeout, a lost lease or shutdown.
  const engineSignal = AbortSignal.any([timeout.signal, ...stopped]);
  let result: ProcessingResult;
  try {
    result = await Promise.race([
      deps.processor.recognize(doc, engineSignal),
      whenAborted<ProcessingResult>(timeout.signal, () => new JobTimedOut()),
      whenAborted<ProcessingResult>(lease.lost, () => new JobStopped('lease lost')),
      ...(deps.shutdown ? [whenAborted<ProcessingResult>(deps.shutdown, () => new JobStopped('shutdown'))] : []),
    ]);
  } catch (err) {
    if (err instanceof JobStopped) return await stop(deps, doc, err.why);
    if (!(err instanceof JobTimedOut)) throw err;
    deps.log?.('job timed out', { documentId: doc.id, timeoutMs: deps.jobTimeoutMs ?? JOB_TIMEOUT_MS });
    result = timedOrFailed('timeout', deps.clock.now().getTime() - started);
  } finally {
    lease.stop();
    timeout.cancel();
  }
  // A result that arrives together with the stop is not written: the stop wins.
  if (stopped.some((s) => s.aborted)) return await stop(deps, doc, lease.lost.aborted ? 'lease lost' : 'shutdown');
  if (!result.ok && result.retryable && doc.attempts < MAX_JOB_ATTEMPTS) {
    // The engine being down is not the document's fault: try again later rather than fail it.
    await deps.queue.release(doc, new Date(deps.clock.now().getTime() + ENGINE_RETRY_DELAY_MS), { charge: true });
    return true;
  }
  if (!(await deps.processor.finish(doc, result))) deps.log?.('job result dropped: document no longer held', { documentId: doc.id });
  return true;
}

/** A lost lease writes nothing (the new holder owns the row); a shutdown releases the document, uncharged. */
async function stop(deps: WorkerDeps, doc: { id: string; leaseToken: number }, why: 'lease lost' | 'shutdown'): Promise<boolean> {
  if (why === 'shutdown') await deps.queue.release(doc, deps.clock.now(), { charge: false });
  deps.log?.(why === 'shutdown' ? 'job released on shutdown' : 'job aborted: lease lost', { documentId: doc.id, leaseToken: doc.leaseToken });
  return true;
}
