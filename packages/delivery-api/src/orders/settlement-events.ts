import type { Queryable } from '@app/shared';
import type { SettlementListener } from '../holds/loyalty-holds.js';
import type { OrderEvents } from './order-events.js';
import { OrdersRepo, toView } from './orders.repo.js';

/**
 * The holds' {@link SettlementListener} of the orders feature: a settled leg of an order emits
 * `order.loyalty_confirmed` or `order.loyalty_released` with the order as it is, in the settlement's transaction.
 * Spec: Events.
 */
export function orderSettlementEvents(events: OrderEvents): SettlementListener {
  return {
    async settled(q: Queryable, orderId: string, effect: 'confirm' | 'release', at: Date) {
      const order = await new OrdersRepo(q).byId(orderId);
      if (order) await events.emit(q, effect === 'confirm' ? 'order.loyalty_confirmed' : 'order.loyalty_released', toView(order), at);
    },
  };
}
