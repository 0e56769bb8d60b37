/**
 * The order part of the POS protocol (`/pos/v1/orders/...`, `/pos/v1/cancellations/claim`): one TypeBox schema per
 * wire shape, used by the routes for validation and OpenAPI, and imported as types by the POS simulator
 * (`@app/delivery-contract`), so the server and the plugin cannot drift apart. Amounts are integer kopecks;
 * timestamps RFC 3339 UTC. Source: docs/pos-protocol.md "Orders" and "POS order payload"; spec
 * delivery-partner-api.md "States and transitions".
 */
import { Type, type Static } from 'typebox';
import { Nullable, strict } from '@app/shared/typebox';
import { CancelDetailSchema, DeliveryStatusSchema, type OrderView } from './order-view.js';

const Text = (maxLength: number) => Type.String({ maxLength });
const Kopecks = Type.Integer({ description: 'kopecks' });

/** Creation states a POS may report; the server checks each against its transition table. */
export const PosReportedStateSchema = Type.Union([
  Type.Literal('prepared'),
  Type.Literal('create_sending'),
  Type.Literal('created_verified'),
  Type.Literal('reconciliation_required'),
  Type.Literal('rejected_final'),
]);
export type PosReportedState = Static<typeof PosReportedStateSchema>;

/** Result of the street lookup in the terminal's own dictionary: only `ok` lets the POS create a delivery. */
export const StreetStatusSchema = Type.Union([Type.Literal('ok'), Type.Literal('ambiguous'), Type.Literal('not_found'), Type.Literal('unknown')]);
export type StreetStatus = Static<typeof StreetStatusSchema>;

/** One payment entry of the POS order (iiko payment type by code). */
export const PosPaymentSchema = Type.Object(
  {
    paymentTypeCode: Type.String(),
    kind: Type.Union([Type.Literal('online'), Type.Literal('cash'), Type.Literal('card'), Type.Literal('bonus'), Type.Literal('certificate')]),
    sumMinor: Kopecks,
    isProcessedExternally: Type.Boolean(),
    externalPaymentId: Type.Optional(Type.String()),
    /** Cash: the banknote the guest pays with, in kopecks. */
    changeFromMinor: Type.Optional(Kopecks),
  },
  strict,
);
export type PosPayment = Static<typeof PosPaymentSchema>;

/**
 * What a claimed order carries so the POS can create it at the restaurant: POS product ids, quantities (decimal
 * strings), prices (null for legacy orders), mapped discounts, payments with codes, the delivery-fee line, guest,
 * address with the street check, the first 250 characters of the comment, order type and deliverAt.
 * Spec: POST /v1/orders rules 7, 9, 12.
 */
export const PosOrderPayloadSchema = Type.Object(
  {
    orderId: Type.String(),
    /** The id the POS echoes in every report (stable across re-claims). */
    stableId: Type.String(),
    externalNumber: Type.String(),
    kind: Type.Union([Type.Literal('checkout'), Type.Literal('legacy')]),
    organizationId: Type.String(),
    terminalGroupId: Type.String(),
    orderTypeId: Type.String(),
    operatorUserId: Type.String(),
    originName: Type.String(),
    deliveryType: Type.Union([Type.Literal('courier'), Type.Literal('pickup')]),
    /** RFC 3339 UTC; null = as soon as possible. */
    deliverAt: Nullable(Type.String({ format: 'date-time' })),
    /** The POS shows the order as not confirmed until the cashier confirms (rule 12). */
    confirmed: Type.Literal(false),
    guest: Type.Object({ name: Type.String(), phone: Type.String(), externalClientId: Nullable(Type.String()) }, strict),
    address: Type.Object(
      {
        city: Nullable(Type.String()),
        street: Type.String(),
        streetStatus: StreetStatusSchema,
        streetCity: Nullable(Type.String()),
        house: Type.String(),
        flat: Nullable(Type.String()),
        entrance: Nullable(Type.String()),
        floor: Nullable(Type.String()),
        doorphone: Nullable(Type.String()),
        comment: Nullable(Type.String()),
      },
      strict,
    ),
    /** The first 250 characters of the guest's comment. */
    comment: Nullable(Text(250)),
    persons: Nullable(Type.Integer()),
    callBack: Type.Boolean(),
    items: Type.Array(
      Type.Object({ productId: Type.String(), amount: Type.String(), priceMinor: Nullable(Kopecks), sumMinor: Nullable(Kopecks) }, strict),
    ),
    /** Order-level discounts mapped to POS discount types (a promo code is on the whole order, rule 12). */
    discounts: Type.Array(
      Type.Object({ discountTypeId: Type.String(), sumMinor: Kopecks, kind: Type.Union([Type.Literal('program'), Type.Literal('coupon')]) }, strict),
    ),
    giftLines: Type.Array(Type.Object({ productId: Type.String(), amount: Type.String(), discountTypeId: Type.String() }, strict)),
    deliveryFeeLine: Nullable(Type.Object({ productId: Type.String(), sumMinor: Kopecks }, strict)),
    deliveryFeeMinor: Kopecks,
    payments: Type.Array(PosPaymentSchema),
  },
  strict,
);
export type PosOrderPayload = Static<typeof PosOrderPayloadSchema>;

/** One element of the claim answer: the lease (`claimId`, valid until `claimExpiresAt`, 120 s) and the order. */
export const ClaimedOrderSchema = Type.Object(
  {
    orderId: Type.String(),
    claimId: Type.String(),
    claimExpiresAt: Type.String({ format: 'date-time' }),
    /** Equals the order id; echoed in every report. */
    stableId: Type.String(),
    order: PosOrderPayloadSchema,
  },
  strict,
);
export type ClaimedOrder = Static<typeof ClaimedOrderSchema>;

/** Body of `POST /pos/v1/orders/claim`: at most `limit` (1…50, default 10) orders per claim. */
export const ClaimBody = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })) }, strict);
export const ClaimReply = Type.Object({ orders: Type.Array(ClaimedOrderSchema) }, strict);

/** Body of `POST /pos/v1/orders/{id}/state`. `posOrderId` is required with `created_verified` and never changes once reported. */
export const StateReportBody = Type.Object(
  {
    claimId: Type.String(),
    stableId: Type.String(),
    state: PosReportedStateSchema,
    posOrderId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    posDeliveryId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    message: Type.Optional(Text(1000)),
  },
  strict,
);
export type StateReport = Static<typeof StateReportBody>;

/** Body of `POST /pos/v1/orders/{id}/delivery-status`; `at` (RFC 3339) defaults to the server's now. */
export const DeliveryStatusReportBody = Type.Object(
  { status: DeliveryStatusSchema, at: Type.Optional(Type.String({ format: 'date-time' })) },
  strict,
);
export type DeliveryStatusReport = Static<typeof DeliveryStatusReportBody>;

/** One requested cancellation handed to the POS (at most once per 120 s); the POS cancels with 'client refusal'. */
export const CancellationRequestSchema = Type.Object(
  {
    orderId: Type.String(),
    stableId: Type.String(),
    posOrderId: Nullable(Type.String()),
    /** The order's server state when handed out (`claimed`, `create_sending` or `created_verified`). */
    state: Type.String(),
    reason: Type.Literal('client refusal'),
  },
  strict,
);
export type CancellationRequest = Static<typeof CancellationRequestSchema>;
export const CancellationsReply = Type.Object({ cancellations: Type.Array(CancellationRequestSchema) }, strict);

/** Body of `POST /pos/v1/orders/{id}/cancel-result`; a rejection needs `detail`. */
export const CancelResultBody = Type.Object(
  { result: Type.Union([Type.Literal('cancelled'), Type.Literal('rejected')]), detail: Type.Optional(CancelDetailSchema) },
  strict,
);
export type CancelResultReport = Static<typeof CancelResultBody>;

/** The server's Order view, the answer to every POS report (the simulator reads these fields). Spec: Order view. */
export type PosOrderView = Pick<OrderView, 'id' | 'state' | 'posOrderId' | 'deliveryStatus' | 'cancelState' | 'cancelDetail'>;
export type { CancelDetail, DeliveryStatus } from './order-view.js';
