import type { Queryable } from '@app/shared';
import type { OrderView } from './order-view.js';

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

/**
 * Port to the webhook outbox: `emit` writes the event inside the caller's transaction `q`, so the event exists
 * exactly when the change it reports was committed (transactional outbox, ARCHITECTURE "Webhooks").
 */
export interface OrderEvents {
  emit(q: Queryable, type: OrderEventType, order: OrderView, occurredAt: Date): Promise<void>;
}

/** Records events in memory (tests that do not look at webhooks). */
export class RecordingOrderEvents implements OrderEvents {
  readonly events: { type: OrderEventType; order: OrderView }[] = [];
  async emit(_q: Queryable, type: OrderEventType, order: OrderView): Promise<void> {
    this.events.push({ type, order });
  }
}
