import type { Queryable } from '@app/shared';
import { ApiError } from '../errors.js';
import { canTransition, type TransitionCause } from './order-states.js';
import type { OrderEvents } from './order-events.js';
import type { OrderState } from '@app/delivery-contract';
import { OrdersRepo, toView, type OrderRecord } from './orders.repo.js';

/**
 * The one way an order changes state: checks the transition table, writes the change and its
 * `order.state_changed` event in the caller's transaction `q`. Extra column changes go in `fields`.
 * @throws ApiError invalid_state_transition (409) when the move is not a row of the table.
 */
export async function transition(
  q: Queryable,
  events: OrderEvents,
  order: OrderRecord,
  to: OrderState,
  cause: TransitionCause,
  at: Date,
  fields: Record<string, unknown> = {},
): Promise<OrderRecord> {
  if (!canTransition(order.state, to, cause)) {
    throw new ApiError('invalid_state_transition', {}, `${order.state} → ${to} is not allowed (${cause})`);
  }
  const updated = await new OrdersRepo(q).update(order.id, { ...fields, state: to }, at);
  await events.emit(q, 'order.state_changed', toView(updated), at);
  return updated;
}
