import type { Clock } from '@app/shared';
import type { DocumentProcessor } from './document-processor.js';
import type { QueueRepo } from './queue.repo.js';

/** Lease of a claimed document: comfortably above the engine's worst case; a dead worker's row returns after it. */
export const JOB_LEASE_MS = 5 * 60 * 1000;
/** A document whose worker died (or found the engine unavailable) this many times is failed, not retried forever. */
export const MAX_JOB_ATTEMPTS = 3;
/** Wait before retrying a document whose engine was unavailable. */
export const ENGINE_RETRY_DELAY_MS = 60_000;

/**
 * One worker step: claim a due document (queued and due, or with an expired lease), recognise, finish.
 * An unavailable engine puts the document back for {@link ENGINE_RETRY_DELAY_MS}, at most 3 attempts in all.
 * Resolves false when nothing was due. Several workers (and instances) run this concurrently on one database.
 */
export async function runWorkerStep(deps: { queue: QueueRepo; processor: DocumentProcessor; clock: Clock }): Promise<boolean> {
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
  // Keep the lease while a long recognition runs, so no other worker takes the document meanwhile.
  const heartbeat = setInterval(() => {
    deps.queue.renew(doc.id, new Date(deps.clock.now().getTime() + JOB_LEASE_MS)).catch(() => {});
  }, JOB_LEASE_MS / 3);
  let result;
  try {
    result = await deps.processor.recognize(doc);
  } finally {
    clearInterval(heartbeat);
  }
  if (!result.ok && result.retryable && doc.attempts < MAX_JOB_ATTEMPTS) {
    // The engine being down is not the document's fault: try again later rather than fail it.
    await deps.queue.release(doc.id, new Date(deps.clock.now().getTime() + ENGINE_RETRY_DELAY_MS));
    return true;
  }
  await deps.processor.finish(doc, result);
  return true;
}
