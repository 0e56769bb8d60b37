/** Webhook bodies. Spec: Events, Body. */
import type { OrderView } from './order-view.js';

/**
 * The `order` object of a webhook: the Order view without internal technical fields (`route` keeps only the
 * partner's own `source` and `externalPointId`).
 */
export interface WebhookOrder extends Omit<OrderView, 'route'> {
  route: { source: string; externalPointId: string };
}

/** Body of every webhook. `occurredAt` is RFC 3339 UTC. */
export interface WebhookBody {
  eventId: string;
  type: string;
  occurredAt: string;
  order: WebhookOrder;
}
