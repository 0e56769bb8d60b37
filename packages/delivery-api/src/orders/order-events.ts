import type { Queryable } from '@app/shared';
import type { OrderView } from '@app/delivery-contract';

/** The eight working event types. Spec: Events. */
export type OrderEventType =
  | 'order.state_changed'
  | 'order.delivery_status_changed'
  | 'order.cancel_requested'
  | 'order.cancel_result'
  | 'order.payment_recorded'
  | 'order.loyalty_confirmed'
  | 'order.loyalty_released'
  | 'order.accrued';

/** One order event: its type, the order as of the change, and the instant of the change (UTC). */
export interface OrderEvent {
  type: OrderEventType;
  order: OrderView;
  occurredAt: Date;
}

/**
 * Port to the webhook outbox (transactional outbox, ARCHITECTURE "Webhooks"): the event exists exactly when the
 * change it reports was committed.
 */
export interface OrderEvents {
  /** Writes the event inside the caller's transaction `q` (one statement). */
  emit(q: Queryable, type: OrderEventType, order: OrderView, occurredAt: Date): Promise<void>;
  /**
   * The write of `events` as part of the caller's own statement, with the change they report (order creation:
   * OrdersRepo.create, one round trip, so the events exist exactly when the order does). An adapter that keeps
   * events elsewhere takes them here and returns a write of nothing.
   */
  inStatement(events: OrderEvent[]): EventsWrite;
}

/**
 * Events written inside another statement (SQL owned by the adapter, webhooks/outbox.repo.ts): `ctes(param, gate)`
 * is a comma-separated list of data-modifying CTEs (no `WITH`) that reads its rows from parameter `$param` (the
 * value `value`), writes only when the CTE or table `gate` has rows, and ends with a CTE `events_written`. Its
 * text depends on the arguments only, so it can sit in a named prepared statement.
 */
export interface EventsWrite {
  ctes(param: number, gate: string | null): string;
  value: string;
}
