import type { Clock } from '@app/shared';
import type { CallbackHttp } from './callback-http.js';
import { callbackHeaders, newCallbackSecret } from './callback-signature.js';
import type { CallbackRecord, CallbacksRepo } from './callbacks.repo.js';
import type { RecognitionMetrics } from '../http/metrics.js';
import { deadlineSignal, realScheduler, whenAborted, type Scheduler } from '../time/scheduler.js';

/**
 * Delays before each re-attempt (Spec: Events): 5 s, 30 s, 2 min. The first POST goes out as soon as processing
 * ends; the spec's "up to 3 attempts" are read as the three re-attempts these three delays separate, so a dead
 * receiver sees 4 POSTs in about 2 min 35 s, then the row is `failed` (docs/recognition.md).
 */
export const CALLBACK_RETRY_DELAYS_MS = [5_000, 30_000, 120_000] as const;

/**
 * Hard deadline of one POST, whatever the receiver does (docs/decisions.md "Callback delivery"): undici's body timeout is per chunk,
 * so a receiver that trickles its answer could otherwise hold an attempt past the lease and get the row POSTed
 * again at the same moment by another sender. 30 s = the 10 s connect + 10 s headers + 10 s body budgets.
 */
export const CALLBACK_ATTEMPT_DEADLINE_MS = 30_000;

/** Lease on a claimed callback: twice the attempt deadline, so the outcome is recorded before anyone else claims. */
export const CALLBACK_LEASE_MS = 60_000;

/** POSTs in one attempt series: the first, then one after each of the three delays (docs/recognition.md). */
export const CALLBACK_MAX_ATTEMPTS = CALLBACK_RETRY_DELAYS_MS.length + 1;

/** Deliveries in flight at once, in all and per API key (one slow receiver holds at most its key's share). */
export const CALLBACK_LIMITS = { total: 32, perKey: 4 };

/**
 * Where a callback's signing secret comes from: its key's, else its document's key's, created when missing; null when
 * neither exists any more. Implemented by keys/ `KeysRepo`, which owns `api_keys`.
 */
export interface CallbackSecrets {
  signingSecret(cb: Pick<CallbackRecord, 'apiKeyId' | 'documentId'>, fresh: string): Promise<string | null>;
}

/**
 * Delivers due callbacks in parallel (docs/decisions.md "Parallel callback sender"): each {@link runOnce} claims due rows, at most one per
 * key per call and none of a key already at its cap, and starts them without waiting, so a slow or unreachable
 * receiver of one key never delays another key's callbacks. Each POST carries the Standard Webhooks headers
 * signed with the owner key's secret (callback-signature.ts); the delivery id is the row id, the same on every
 * retry. A 2xx response confirms; anything else schedules the next attempt from the injected clock.
 */
export class CallbackSender {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly perKey = new Map<string, number>();

  constructor(
    private readonly deps: {
      repo: CallbacksRepo;
      /** The signing secret of a callback's key (keys/ owns `api_keys`; KeysRepo fits). */
      secrets: CallbackSecrets;
      http: CallbackHttp;
      clock: Clock;
      log?: (msg: string, extra: object) => void;
      /** Attempts by outcome at /metrics. */
      metrics?: RecognitionMetrics;
      limits?: { total: number; perKey: number };
      /** Called when a delivery ends (a slot is free): the poller runs again at once. */
      onSlotFree?: () => void;
      /** Timers of the attempt deadline (default real timers). */
      scheduler?: Scheduler;
    },
  ) {}

  /** Claims and starts due deliveries; resolves true when at least one was started. */
  async runOnce(): Promise<boolean> {
    const limits = this.deps.limits ?? CALLBACK_LIMITS;
    const free = limits.total - this.inFlight.size;
    if (free <= 0) return false;
    const full = [...this.perKey].filter(([, n]) => n >= limits.perKey).map(([k]) => k);
    const claimed = await this.deps.repo.claimDue(this.deps.clock.now(), CALLBACK_LEASE_MS, { limit: free, excludeKeys: full });
    for (const cb of claimed) {
      const key = cb.apiKeyId ?? cb.id;
      this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
      const run = this.deliver(cb).finally(() => {
        this.inFlight.delete(cb.id);
        const n = (this.perKey.get(key) ?? 1) - 1;
        if (n > 0) this.perKey.set(key, n);
        else this.perKey.delete(key);
        this.deps.onSlotFree?.();
      });
      this.inFlight.set(cb.id, run);
    }
    return claimed.length > 0;
  }

  /** Resolves when every delivery started so far has ended (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /**
   * One POST, signed always (the key's secret, created if missing), raced against the attempt deadline; the
   * outcome is recorded under the claim's token, so a sender whose lease was taken over changes nothing.
   */
  private async deliver(cb: CallbackRecord): Promise<void> {
    const { repo, http, clock } = this.deps;
    const startedAt = clock.now();
    const deadline = deadlineSignal(this.deps.scheduler ?? realScheduler, clock, new Date(startedAt.getTime() + CALLBACK_ATTEMPT_DEADLINE_MS));
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      const body = JSON.stringify(cb.payload);
      const secret = await this.deps.secrets.signingSecret(cb, newCallbackSecret());
      if (!secret) throw new Error('the document and its API key no longer exist');
      const headers = callbackHeaders(secret, cb.id, Math.floor(clock.now().getTime() / 1000), body);
      const res = await Promise.race([
        http.postJson(cb.url, body, headers, deadline.signal),
        whenAborted<never>(deadline.signal, () => new Error(`no complete answer within ${CALLBACK_ATTEMPT_DEADLINE_MS / 1000} s`)),
      ]);
      httpStatus = res.status;
      if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
    } catch (err) {
      error = deadline.signal.aborted
        ? `no complete answer within ${CALLBACK_ATTEMPT_DEADLINE_MS / 1000} s`
        : (err as Error).message || 'network error';
    } finally {
      deadline.cancel();
    }
    const delay = error === null ? undefined : CALLBACK_RETRY_DELAYS_MS[cb.attempts];
    const nextAt = delay === undefined ? null : new Date(clock.now().getTime() + delay);
    const outcome = error === null ? 'delivered' : 'failed';
    const recorded = await repo.recordAttempt(cb, { startedAt, finishedAt: clock.now(), outcome, httpStatus, error, nextAt }).catch((err: Error) => {
      this.deps.log?.('callback bookkeeping failed', { id: cb.id, err: err.message });
      return false;
    });
    if (!recorded) {
      this.deps.log?.("callback outcome not recorded: the row is no longer this sender's", { id: cb.id, leaseToken: cb.leaseToken });
      return;
    }
    this.deps.metrics?.callback(error === null ? 'delivered' : nextAt ? 'retry' : 'dead');
    if (error !== null) this.deps.log?.('callback attempt failed', { documentId: cb.documentId, attempt: cb.attempts + 1, error, nextAt });
  }
}
