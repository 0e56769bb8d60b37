import { Counter, type Registry } from 'prom-client';
import { ApiError } from '../errors.js';

/** Outcome of one `POST /v1/orders`: `created` (201), `replayed` (200, idempotent repeat) or the error code. */
export interface OrderMetrics {
  outcome(outcome: string): void;
}

/** `delivery_order_creations_total{outcome}` at /metrics (docs/decisions.md "Delivery metrics"). */
export function createOrderMetrics(registry: Registry): OrderMetrics {
  const c = new Counter({
    name: 'delivery_order_creations_total',
    help: 'POST /v1/orders by outcome (created, replayed or the error code)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return { outcome: (outcome) => c.inc({ outcome }) };
}

/** The outcome label of a failed creation: the API error code, else `internal_error`. */
export const outcomeOfError = (err: unknown): string => (err instanceof ApiError ? err.code : 'internal_error');
