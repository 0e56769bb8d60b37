import { randomIds, type IdSource, type Queryable } from '@app/shared';
import type { OrderEvent, OrderEvents, OrderEventType } from '../orders/order-events.js';
import { OutboxRepo, outboxWrite, type OutboxEntry } from './outbox.repo.js';
import type { OrderView } from '@app/delivery-contract';
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

/**
 * The catalog event types, sent only to sources with the `catalog-events` switch (spec: Events, "in development,
 * not sent"; docs/planned-features.md). Listed here, beside the order types, because an endpoint's subscription
 * list may name them.
 */
export const CATALOG_EVENT_TYPES = ['menu.updated', 'stoplist.updated', 'point.status_changed'] as const;
export type CatalogEventType = (typeof CATALOG_EVENT_TYPES)[number];

/** Every type an endpoint's explicit `events` list may name: the order events and the catalog events. */
export const SUBSCRIBABLE_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, ...CATALOG_EVENT_TYPES] as const;
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

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
 * The outbox entry of one event: the webhook body serialised now (spec: Events), a new internal delivery id from
 * `ids` (default random; kept apart from the event ids' source so event ids stay the caller's sequence).
 */
export function outboxEntry(e: OrderEventInput, ids: IdSource = randomIds): OutboxEntry {
  const occurredAt = e.occurredAt.toISOString();
  const body = serialiseWebhookBody({ eventId: e.eventId, type: e.type, occurredAt, order: toWebhookOrder(e.order) });
  return { eventId: e.eventId, tenantId: e.tenantId, source: e.source, orderId: e.order.id, type: e.type, occurredAt, body, deliveryId: ids.uuid() };
}

/**
 * Transactional outbox write: call with the caller's transaction `q`, so the event exists exactly when the
 * change it reports is committed. When (tenantId, source) has no endpoint or the endpoint is not subscribed to
 * `e.type`, nothing is written (decision: such events are not kept, because a URL set later must not receive a
 * backlog of stale events; see docs/webhooks.md). Otherwise writes the event with its serialised body and one
 * `pending` delivery due at `occurredAt`: one statement (OutboxRepo.enqueue).
 */
export async function enqueueOrderEvent(q: Queryable, e: OrderEventInput, ids: IdSource = randomIds): Promise<void> {
  await new OutboxRepo(q).enqueue([outboxEntry(e, ids)]);
}

/**
 * Adapter of the orders feature's `OrderEvents` port onto the outbox: tenant from `order.route.tenantId`,
 * source from `order.source`, a new eventId from `ids`. Pass it as `AppDeps.events`.
 */
export function createOutboxOrderEvents(ids: IdSource): OrderEvents {
  const entries = (events: OrderEvent[]): OutboxEntry[] =>
    events.map((e) =>
      outboxEntry({
        tenantId: e.order.route.tenantId,
        source: e.order.source,
        type: e.type,
        order: e.order,
        occurredAt: e.occurredAt,
        eventId: ids.uuid(),
      }),
    );
  return {
    emit: (q, type, order, occurredAt) => new OutboxRepo(q).enqueue(entries([{ type, order, occurredAt }])),
    inStatement: (events) => outboxWrite(entries(events)),
  };
}
