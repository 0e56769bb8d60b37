/**
 * The Order view returned by create, lookup and status endpoints, and (without internal fields) in webhooks: one
 * TypeBox schema per shape, and the types derived from them, so validation, OpenAPI and code share one source.
 * Spec: delivery-partner-api.md, "Order view (response of create, lookup, status)" and "States and transitions".
 * Timestamps are RFC 3339 UTC strings ("2026-11-23T07:40:00.000Z").
 */
import { Type, type Static } from 'typebox';
import { Nullable, literals } from '@app/shared/typebox';

/** Server order states. Spec: "States and transitions". */
export const ORDER_STATES = [
  'queued',
  'claimed',
  'prepared',
  'create_sending',
  'created_verified',
  'reconciliation_required',
  'manual_review',
  'rejected_final',
  'cancelled',
] as const;
export const OrderStateSchema = literals(ORDER_STATES);
export type OrderState = (typeof ORDER_STATES)[number];

/** iiko delivery statuses (spec: Order `deliveryStatus`; `CookingStarted`/`CookingCompleted` are not sent by real POS installations). */
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
export const DeliveryStatusSchema = literals(DELIVERY_STATUSES);
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** `none` → `requested` → `done` (cancelled at the POS) or `rejected` (POS refused; see cancelDetail). */
export const CancelStateSchema = literals(['none', 'requested', 'done', 'rejected']);
export type CancelState = Static<typeof CancelStateSchema>;
/** Why the POS refused a cancellation. Spec: "cancelDetail values". */
export const CancelDetailSchema = literals(['not_new', 'sdk_error', 'not_found', 'no_cancel_cause']);
export type CancelDetail = Static<typeof CancelDetailSchema>;
/** Spec: POST /v1/orders/{id}/cancel `reason`. */
export const CancelReasonSchema = literals(['guest_request', 'payment_failed', 'duplicate', 'other']);
export type CancelReason = Static<typeof CancelReasonSchema>;

/** Where the order goes at the POS (all strings). */
export const OrderRouteSchema = Type.Object({
  tenantId: Type.String(),
  source: Type.String(),
  externalPointId: Type.String(),
  organizationId: Type.String(),
  terminalGroupId: Type.String(),
  orderTypeId: Type.String(),
  operatorUserId: Type.String(),
  originName: Type.String(),
});
export type OrderRoute = Static<typeof OrderRouteSchema>;

/** The Order view. `payloadSha256` is the lowercase hex SHA-256 of the canonical order body. */
export const OrderViewSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  externalOrderId: Type.String(),
  source: Type.String(),
  state: OrderStateSchema,
  payloadSha256: Type.String(),
  route: OrderRouteSchema,
  posOrderId: Nullable(Type.String()),
  posDeliveryId: Nullable(Type.String()),
  deliveryStatus: Nullable(DeliveryStatusSchema),
  deliveryStatusAt: Nullable(Type.String({ format: 'date-time' })),
  cancelState: CancelStateSchema,
  cancelReason: Nullable(CancelReasonSchema),
  cancelDetail: Nullable(CancelDetailSchema),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type OrderView = Static<typeof OrderViewSchema>;
