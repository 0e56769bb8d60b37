import type { Clock } from '@app/shared';
import { every, type Scheduler } from '../time/scheduler.js';
import type { JobClaim, QueueRepo } from './queue.repo.js';

/**
 * Lease of a document being processed (worker or high lane): 2 minutes, renewed every 40 s while the work runs,
 * so a long recognition is never taken by a second worker, while a crashed holder's row returns within 2 minutes.
 */
export const JOB_LEASE_MS = 2 * 60 * 1000;

/** What {@link holdLease} needs; `leaseMs` defaults to {@link JOB_LEASE_MS} (tests with real processes shorten it). */
export interface LeaseDeps {
  queue: QueueRepo;
  clock: Clock;
  scheduler: Scheduler;
  leaseMs?: number;
  log?: (msg: string, extra: object) => void;
}

/**
 * Renews the lease of `claim` every third of the lease on the injected scheduler until the returned function is
 * called. The returned `lost` signal aborts when the lease is no longer this holder's: a renewal that matches no
 * row (another worker claimed the document under a newer token after this one stalled: docs/decisions.md "Job fencing"), or
 * renewals that keep failing until the lease has run out. A failed renewal before that is logged and retried.
 */
export function holdLease(deps: LeaseDeps, claim: JobClaim): { stop: () => void; lost: AbortSignal } {
  const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
  const lost = new AbortController();
  let heldUntil = deps.clock.now().getTime() + leaseMs;
  const stop = every(deps.scheduler, leaseMs / 3, () => {
    const until = deps.clock.now().getTime() + leaseMs;
    deps.queue.renew(claim, new Date(until)).then(
      (ok) => {
        if (ok) heldUntil = until;
        else lost.abort('lease lost');
      },
      (err: Error) => {
        deps.log?.('lease renewal failed', { documentId: claim.id, err: err.message });
        if (deps.clock.now().getTime() >= heldUntil) lost.abort('lease expired');
      },
    );
  });
  return {
    stop: () => {
      stop();
    },
    lost: lost.signal,
  };
}
