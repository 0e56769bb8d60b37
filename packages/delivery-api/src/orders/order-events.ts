import type { Queryable } from '@app/shared';
import type { OrderView } from './order-view.js';
import type { OutboxEntry } from './outbox.repo.js';

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
   * The outbox entries of `events` (new event ids), for a caller that writes them in its own statement with the
   * change they report (order creation: OrdersRepo.create, one round trip). The caller must write all of them or
   * none. A port that keeps events elsewhere (a test recorder) takes them here and returns none.
   */
  entries(events: OrderEvent[]): OutboxEntry[];
}

/** Records events in memory (tests that do not look at webhooks). */
export class RecordingOrderEvents implements OrderEvents {
  readonly events: { type: OrderEventType; order: OrderView }[] = [];
  async emit(_q: Queryable, type: OrderEventType, order: OrderView): Promise<void> {
    this.events.push({ type, order });
  }
  entries(events: OrderEvent[]): OutboxEntry[] {
    for (const e of events) this.events.push({ type: e.type, order: e.order });
    return [];
  }
}
