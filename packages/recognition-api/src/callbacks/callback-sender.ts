import type { Clock } from '@app/shared';
import type { CallbackHttp } from './callback-http.js';
import type { CallbacksRepo } from './callbacks.repo.js';

/**
 * Delays before each re-attempt (Spec: Events): 5 s, 30 s, 2 min. The first POST goes out as soon as processing
 * ends; the spec's "up to 3 attempts" are read as the three re-attempts these three delays separate, so a dead
 * receiver sees 4 POSTs in about 2 min 35 s, then the row is `failed` (docs/recognition.md).
 */
export const CALLBACK_RETRY_DELAYS_MS = [5_000, 30_000, 120_000] as const;

/** Lease on a claimed callback: longer than one attempt (10 s connect + 10 s headers + 10 s body). */
const LEASE_MS = 60_000;

/**
 * Delivers due callbacks, one row per call of {@link runOnce}; the caller loops (see `Poller`). A 2xx response
 * confirms; anything else (status, timeout, refused address, network error) schedules the next attempt from the
 * injected clock, so tests move a ManualClock instead of waiting.
 */
export class CallbackSender {
  constructor(
    private readonly deps: { repo: CallbacksRepo; http: CallbackHttp; clock: Clock; log?: (msg: string, extra: object) => void },
  ) {}

  /** Sends one due callback; resolves false when none was due. */
  async runOnce(): Promise<boolean> {
    const { repo, http, clock } = this.deps;
    const cb = await repo.claimDue(clock.now(), LEASE_MS);
    if (!cb) return false;
    let error: string;
    try {
      const res = await http.postJson(cb.url, JSON.stringify(cb.payload));
      if (res.status >= 200 && res.status < 300) {
        await repo.markDelivered(cb.id);
        return true;
      }
      error = `HTTP ${res.status}`;
    } catch (err) {
      error = (err as Error).message || 'network error';
    }
    const delay = CALLBACK_RETRY_DELAYS_MS[cb.attempts];
    const nextAt = delay === undefined ? null : new Date(clock.now().getTime() + delay);
    await repo.markAttemptFailed(cb.id, error, nextAt);
    this.deps.log?.('callback attempt failed', { documentId: cb.documentId, attempt: cb.attempts + 1, error, nextAt });
    return true;
  }
}
