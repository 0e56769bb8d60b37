import type { Queryable } from '@app/shared';
import type { EventsWrite, OrderEvent, OrderEvents, OrderEventType } from '../../src/orders/order-events.js';
import type { OrderView } from '@app/delivery-contract';
import { outboxWrite } from '../../src/webhooks/outbox.repo.js';

/** Records events in memory (tests that do not look at webhooks); writes nothing to the outbox. */
export class RecordingOrderEvents implements OrderEvents {
  readonly events: { type: OrderEventType; order: OrderView }[] = [];
  async emit(_q: Queryable, type: OrderEventType, order: OrderView): Promise<void> {
    this.events.push({ type, order });
  }
  inStatement(events: OrderEvent[]): EventsWrite {
    for (const e of events) this.events.push({ type: e.type, order: e.order });
    // the outbox's own CTEs with no rows: the statement text stays the one production prepares
    return outboxWrite([]);
  }
}
