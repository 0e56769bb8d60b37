import type { Clock } from '@app/shared';
import { every, type Scheduler } from '../time/scheduler.js';
import type { QueueRepo } from './queue.repo.js';

/**
 * Lease of a document being processed (worker or high lane): 2 minutes, renewed every 40 s while the work runs,
 * so a long recognition is never taken by a second worker, while a crashed holder's row returns within 2 minutes.
 */
export const JOB_LEASE_MS = 2 * 60 * 1000;

/**
 * Renews the lease on document `id` every third of {@link JOB_LEASE_MS} on the injected scheduler until the
 * returned function is called. A failed renewal is logged and retried at the next beat.
 */
export function holdLease(
  deps: { queue: QueueRepo; clock: Clock; scheduler: Scheduler; log?: (msg: string, extra: object) => void },
  id: string,
): () => void {
  return every(deps.scheduler, JOB_LEASE_MS / 3, () => {
    deps.queue
      .renew(id, new Date(deps.clock.now().getTime() + JOB_LEASE_MS))
      .catch((err: Error) => deps.log?.('lease renewal failed', { documentId: id, err: err.message }));
  });
}
