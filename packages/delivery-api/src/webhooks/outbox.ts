import { randomIds, type IdSource, type Queryable } from '@app/shared';
import type { OrderEvents, OrderEventType } from '../orders/order-events.js';
import type { OrderView } from '../orders/order-view.js';
import { serialiseWebhookBody, toWebhookOrder } from './webhook-body.js';

/** The eight event types that are sent. Spec: Events (label "working after URL set"). */
export const WEBHOOK_EVENT_TYPES = [
  'order.state_changed',
  'order.delivery_status_changed',
  'order.cancel_requested',
  'order.cancel_result',
  'order.payment_recorded',
  'order.loyalty_confirmed',
  'order.loyalty_released',
  'order.accrued',
] as const satisfies readonly OrderEventType[];

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** One order event to put in the outbox. `eventId` is a new UUID; `occurredAt` the instant of the change (UTC). */
export interface OrderEventInput {
  tenantId: string;
  source: string;
  type: WebhookEventType;
  order: OrderView;
  occurredAt: Date;
  eventId: string;
}

/**
 * Transactional outbox write: call with the caller's transaction `q`, so the event exists exactly when the
 * change it reports is committed. Looks up the endpoint of (tenantId, source); when none is configured or the
 * endpoint is not subscribed to `e.type`, nothing is written (decision: such events are not kept, because a URL
 * set later must not receive a backlog of stale events; see docs/webhooks.md). Otherwise writes the event with
 * its serialised body and one `pending` delivery due at `occurredAt`. `ids` makes the internal delivery id
 * (default random; kept apart from the event ids' source so event ids stay the caller's sequence).
 */
export async function enqueueOrderEvent(q: Queryable, e: OrderEventInput, ids: IdSource = randomIds): Promise<void> {
  const occurredAt = e.occurredAt.toISOString();
  const body = serialiseWebhookBody({ eventId: e.eventId, type: e.type, occurredAt, order: toWebhookOrder(e.order) });
  // One statement (no extra round trips inside the caller's transaction): the endpoint lookup gates both inserts.
  // The delivery id is internal (operator commands); the partner only ever sees the eventId.
  await q.query(
    `WITH ep AS (
       SELECT 1 FROM webhook_endpoints
        WHERE tenant_id = $2 AND source = $3 AND (events IS NULL OR events @> to_jsonb($5::text))
     ), ev AS (
       INSERT INTO webhook_events (event_id, tenant_id, source, order_id, type, occurred_at, body)
       SELECT $1, $2, $3, $4, $5, $6, $7 FROM ep
       RETURNING event_id
     )
     INSERT INTO webhook_deliveries (id, event_id, tenant_id, source, status, next_attempt_at, created_at, updated_at)
     SELECT $8, event_id, $2, $3, 'pending', $6, $6, $6 FROM ev`,
    [e.eventId, e.tenantId, e.source, e.order.id, e.type, occurredAt, body, ids.uuid()],
  );
}

/**
 * Adapter of the orders feature's `OrderEvents` port onto the outbox: tenant from `order.route.tenantId`,
 * source from `order.source`, a new eventId from `ids`. Pass it as `AppDeps.events`.
 */
export function createOutboxOrderEvents(ids: IdSource): OrderEvents {
  return {
    emit: (q, type, order, occurredAt) =>
      enqueueOrderEvent(q, { tenantId: order.route.tenantId, source: order.source, type, order, occurredAt, eventId: ids.uuid() }),
  };
}
