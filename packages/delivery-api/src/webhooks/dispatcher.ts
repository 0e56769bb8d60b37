import { performance } from 'node:perf_hooks';
import { Poller, randomIds, signWebhook, systemClock, type Clock, type Db, type IdSource, type PollerTimers } from '@app/shared';
import type { SecretBox } from '../auth/secret-box.js';
import { DeliveriesRepo, type AttemptRecord, type ClaimedDelivery, type NextState } from './deliveries.repo.js';
import { afterFailure, isSuccessStatus } from './retry-schedule.js';
import { createHttpWebhookSender } from './webhook-sender.http.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, type WebhookSender } from './webhook-sender.port.js';
import type { WebhookMetrics } from './webhook-metrics.js';

/** Minimal structured logger (pino-compatible). */
export interface WebhookLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

function toLog(l: WebhookLog | ((line: string) => void)): WebhookLog {
  if (typeof l !== 'function') return l;
  const put = (obj: object, msg: string) => l(`${msg} ${JSON.stringify(obj)}`);
  return { info: put, warn: put, error: put };
}

/** Dependencies and tuning of the dispatcher. */
export interface WebhookDispatcherOptions {
  db: Db;
  box: SecretBox;
  /** Default systemClock. */
  clock?: Clock;
  /** Outgoing HTTP; default the undici sender (no redirects). */
  http?: WebhookSender;
  /** A pino-like logger, or a function taking one line. */
  log: WebhookLog | ((line: string) => void);
  /** Deliveries claimed per runOnce (default 20); they are sent concurrently. */
  batchSize?: number;
  /** Lease of a claim in seconds (default 60); must exceed the request timeout. */
  leaseSeconds?: number;
  /** Per-request timeout in ms (default 5000, the spec's value; tests shorten it). */
  timeoutMs?: number;
  /** Attempts by outcome and outbox lag at /metrics; default none. */
  metrics?: WebhookMetrics;
  /** Claim tokens; default randomIds. */
  ids?: IdSource;
  /** Timers of the polling loop (tests); default Node's. */
  timers?: PollerTimers;
}

/** A running dispatcher. */
export interface WebhookDispatcher {
  /** Claims due deliveries once and attempts each; resolves with the number attempted. */
  runOnce(): Promise<number>;
  /** Runs at once, then polls every `intervalMs`; a full batch is followed at once by another run (shared Poller). */
  start(intervalMs: number): void;
  /** Stops polling and waits for the run in progress. */
  stop(): Promise<void>;
  /** The effective per-request timeout in ms. */
  readonly timeoutMs: number;
}

/**
 * Webhook dispatcher over the outbox. Spec: Events, Delivery and retries. Headers per attempt:
 * Content-Type application/json, X-Service-Event-Id, X-Service-Timestamp (send time, Unix seconds),
 * X-Service-Signature = signWebhook(secret, timestamp, eventId, storedBody). Safe with several instances
 * (SKIP LOCKED claim + lease); the schedule lives in the database, so a restart neither loses nor resets it.
 */
export function createWebhookDispatcher(opts: WebhookDispatcherOptions): WebhookDispatcher {
  const o = { ...opts, clock: opts.clock ?? systemClock, ids: opts.ids ?? randomIds, log: toLog(opts.log) };
  const http = o.http ?? createHttpWebhookSender();
  const batchSize = o.batchSize ?? 20;
  const leaseSeconds = o.leaseSeconds ?? 60;
  const timeoutMs = o.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const deliveries = new DeliveriesRepo(o.db);
  let poller: Poller | undefined;

  async function attempt(d: ClaimedDelivery, token: string): Promise<void> {
    const startedAt = o.clock.now();
    const t0 = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      if (!d.url || !d.secretEnc) throw new Error('no webhook endpoint configured for this source');
      const timestamp = String(Math.floor(startedAt.getTime() / 1000));
      const headers = {
        'content-type': 'application/json',
        'x-service-event-id': d.eventId,
        'x-service-timestamp': timestamp,
        'x-service-signature': signWebhook(o.box.open(d.secretEnc), timestamp, d.eventId, d.body),
      };
      status = (await http.send({ url: d.url, headers, body: d.body, timeoutMs })).status;
    } catch (err) {
      error = (err as Error).message;
    }
    const success = status !== null && isSuccessStatus(status);
    if (!success && error === null) error = `HTTP ${status}`;
    const a: AttemptRecord = { startedAt, durationMs: performance.now() - t0, httpStatus: status, error: success ? null : error, success };
    const endedAt = o.clock.now();
    let next: NextState = { status: 'delivered' };
    if (!success) {
      const f = afterFailure(d.scheduleStep, endedAt);
      next = f.kind === 'dead' ? { status: 'dead' } : { status: 'pending', nextAt: f.at };
    }
    const kept = await deliveries.finishAttempt(d, token, a, next, endedAt);
    o.metrics?.attempt(next.status === 'pending' ? 'retry' : next.status);
    const ctx = { deliveryId: d.id, eventId: d.eventId, source: d.source, httpStatus: status, error: a.error, next: next.status };
    if (!kept) o.log.warn(ctx, 'webhook lease lost before the attempt was recorded');
    else if (next.status === 'dead') o.log.error(ctx, 'webhook delivery dead after the last retry');
    else if (!success) o.log.warn(ctx, 'webhook attempt failed');
  }

  async function runOnce(): Promise<number> {
    const token = o.ids.uuid();
    const now = o.clock.now();
    const claimed = await deliveries.claimDue(now, batchSize, leaseSeconds, token);
    for (const d of claimed) o.metrics?.lag((now.getTime() - d.dueAt.getTime()) / 1000);
    await Promise.all(claimed.map((d) => attempt(d, token)));
    return claimed.length;
  }

  return {
    runOnce,
    timeoutMs,
    start(intervalMs) {
      if (poller) return;
      // A full batch means more are probably due: the poller drains without waiting for the next interval.
      poller = new Poller(async () => (await runOnce()) >= batchSize, {
        intervalMs,
        timers: o.timers,
        onError: (err) => o.log.error({ err: (err as Error).message }, 'webhook dispatcher run failed'),
      });
      poller.start();
    },
    async stop() {
      const p = poller;
      poller = undefined;
      await p?.stop();
    },
  };
}
