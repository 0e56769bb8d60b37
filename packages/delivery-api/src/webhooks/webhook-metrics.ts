import { Counter, Histogram, type Registry } from 'prom-client';

/** Outcome of one delivery attempt: `delivered` (2xx), `retry` (failed, next attempt scheduled) or `dead` (no attempts left). */
export type AttemptOutcome = 'delivered' | 'retry' | 'dead';

/** What the dispatcher reports at /metrics (docs/decisions.md "Delivery metrics"). */
export interface WebhookMetrics {
  attempt(outcome: AttemptOutcome): void;
  /** Outbox lag of one claimed delivery: seconds between when it was due (event written, or retry time) and its claim. */
  lag(seconds: number): void;
}

/** `delivery_webhook_attempts_total{outcome}` and the histogram `delivery_webhook_outbox_lag_seconds`. */
export function createWebhookMetrics(registry: Registry): WebhookMetrics {
  const attempts = new Counter({
    name: 'delivery_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'delivery_webhook_outbox_lag_seconds',
    help: 'Seconds from a delivery being due to its claim by a dispatcher',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [registry],
  });
  return { attempt: (outcome) => attempts.inc({ outcome }), lag: (s) => lag.observe(Math.max(0, s)) };
}
