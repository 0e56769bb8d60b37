import type { OrderView, WebhookBody, WebhookOrder } from '@app/delivery-contract';

/*
 * The `order` object of a webhook (WebhookOrder, in the contract): the Order view without internal technical fields.
 *
 * Internal (removed): `route.tenantId` and the POS-side routing ids `route.organizationId`,
 * `route.terminalGroupId`, `route.orderTypeId`, `route.operatorUserId`, `route.originName`. They describe our
 * POS installation, not the partner's order, and change when support re-routes a point.
 * Kept: everything else, including `route.source` and `route.externalPointId` (the partner's own values),
 * `payloadSha256` and the POS order/delivery numbers (useful when talking to support).
 * The Order view never carries the guest's name, phone or address, so nothing else needs removing.
 */
export type { WebhookBody, WebhookOrder } from '@app/delivery-contract';

/** Projects an Order view to its webhook form (a new object; explicit field list so a new internal field never leaks). */
export function toWebhookOrder(o: OrderView): WebhookOrder {
  return {
    id: o.id,
    externalOrderId: o.externalOrderId,
    source: o.source,
    state: o.state,
    payloadSha256: o.payloadSha256,
    route: { source: o.route.source, externalPointId: o.route.externalPointId },
    posOrderId: o.posOrderId,
    posDeliveryId: o.posDeliveryId,
    deliveryStatus: o.deliveryStatus,
    deliveryStatusAt: o.deliveryStatusAt,
    cancelState: o.cancelState,
    cancelReason: o.cancelReason,
    cancelDetail: o.cancelDetail,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

/** Serialises the body once; these exact UTF-8 bytes are stored, signed and sent on every attempt. */
export function serialiseWebhookBody(b: WebhookBody): string {
  return JSON.stringify({ eventId: b.eventId, type: b.type, occurredAt: b.occurredAt, order: b.order });
}
