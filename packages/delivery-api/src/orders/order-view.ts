/**
 * The Order view returned by create, lookup and status endpoints, and (without internal fields) in webhooks.
 * Spec: delivery-partner-api.md, "Order view (response of create, lookup, status)" and "States and transitions".
 * Timestamps are RFC 3339 UTC strings ("2026-11-23T07:40:00.000Z").
 */
export type OrderState =
  | 'queued'
  | 'claimed'
  | 'prepared'
  | 'create_sending'
  | 'created_verified'
  | 'reconciliation_required'
  | 'manual_review'
  | 'rejected_final'
  | 'cancelled';

export const DELIVERY_STATUSES = [
  'Unconfirmed',
  'New',
  'Waiting',
  'CookingStarted',
  'CookingCompleted',
  'OnWay',
  'Delivered',
  'Closed',
  'Cancelled',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** `none` → `requested` → `done` (cancelled at the POS) or `rejected` (POS refused; see cancelDetail). */
export type CancelState = 'none' | 'requested' | 'done' | 'rejected';
export type CancelDetail = 'not_new' | 'sdk_error' | 'not_found' | 'no_cancel_cause';
export type CancelReason = 'guest_request' | 'payment_failed' | 'duplicate' | 'other';

/** Where the order goes at the POS (all strings). */
export interface OrderRoute {
  tenantId: string;
  source: string;
  externalPointId: string;
  organizationId: string;
  terminalGroupId: string;
  orderTypeId: string;
  operatorUserId: string;
  originName: string;
}

export interface OrderView {
  id: string;
  externalOrderId: string;
  source: string;
  state: OrderState;
  /** Lowercase hex SHA-256 of the canonical order body (see docs/orders.md, "payloadSha256"). */
  payloadSha256: string;
  route: OrderRoute;
  posOrderId: string | null;
  posDeliveryId: string | null;
  deliveryStatus: DeliveryStatus | null;
  deliveryStatusAt: string | null;
  cancelState: CancelState;
  cancelReason: CancelReason | null;
  cancelDetail: CancelDetail | null;
  createdAt: string;
  updatedAt: string;
}
