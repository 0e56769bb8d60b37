/**
 * Shapes of the order part of the POS protocol (`/pos/v1/orders/...`, `/pos/v1/cancellations/claim`) as the
 * plugin sees them. Source of truth: docs/pos-protocol.md "Orders" and "POS order payload"; amounts in kopecks,
 * timestamps RFC 3339 UTC. Spec: delivery-partner-api.md "States and transitions".
 */

/** Creation states a POS may report (the server checks them against its transition table). */
export type PosReportedState = 'prepared' | 'create_sending' | 'created_verified' | 'reconciliation_required' | 'rejected_final';

/** iiko delivery statuses (spec: Order `deliveryStatus`; `CookingStarted`/`CookingCompleted` are not sent by real POS installations). */
export type DeliveryStatus = 'Unconfirmed' | 'New' | 'Waiting' | 'CookingStarted' | 'CookingCompleted' | 'OnWay' | 'Delivered' | 'Closed' | 'Cancelled';

/** Why the POS refused a cancellation. Spec: `cancelState`, "cancelDetail values". */
export type CancelDetail = 'not_new' | 'sdk_error' | 'not_found' | 'no_cancel_cause';

/** Result of the street lookup in this terminal's own dictionary: only `ok` lets the POS create a delivery. */
export type StreetStatus = 'ok' | 'ambiguous' | 'not_found' | 'unknown';

/** What a claimed order carries so the POS can create it (docs/pos-protocol.md "POS order payload"). */
export interface PosOrderPayload {
  orderId: string;
  stableId: string;
  externalNumber: string;
  kind: 'checkout' | 'legacy';
  organizationId: string;
  terminalGroupId: string;
  orderTypeId: string;
  operatorUserId: string;
  originName: string;
  deliveryType: 'courier' | 'pickup';
  /** RFC 3339 UTC, null = as soon as possible. */
  deliverAt: string | null;
  confirmed: false;
  guest: { name: string; phone: string; externalClientId: string | null };
  address: {
    city: string | null; street: string; streetStatus: StreetStatus; streetCity: string | null; house: string;
    flat: string | null; entrance: string | null; floor: string | null; doorphone: string | null; comment: string | null;
  };
  /** First 250 characters of the guest's comment. */
  comment: string | null;
  persons: number | null;
  callBack: boolean;
  /** `amount` is a decimal string; prices null for legacy orders. */
  items: { productId: string; amount: string; priceMinor: number | null; sumMinor: number | null }[];
  discounts: { discountTypeId: string; sumMinor: number; kind: 'program' | 'coupon' }[];
  giftLines: { productId: string; amount: string; discountTypeId: string }[];
  deliveryFeeLine: { productId: string; sumMinor: number } | null;
  deliveryFeeMinor: number;
  payments: { paymentTypeCode: string; kind: string; sumMinor: number; isProcessedExternally: boolean; externalPaymentId?: string; changeFromMinor?: number }[];
}

/** One element of the claim answer: the lease (`claimId`, valid until `claimExpiresAt`, 120 s) and the order. */
export interface ClaimedOrder {
  orderId: string;
  claimId: string;
  claimExpiresAt: string;
  /** Equals the order id; echoed in every report. */
  stableId: string;
  order: PosOrderPayload;
}

/** Body of `POST /pos/v1/orders/{id}/state`. `posOrderId` is required with `created_verified` and never changes once reported. */
export interface StateReport {
  claimId: string;
  stableId: string;
  state: PosReportedState;
  posOrderId?: string;
  posDeliveryId?: string;
  message?: string;
}

/** Body of `POST /pos/v1/orders/{id}/delivery-status`; `at` (RFC 3339) defaults to the server's now. */
export interface DeliveryStatusReport {
  status: DeliveryStatus;
  at?: string;
}

/** One requested cancellation handed to the POS (at most once per 120 s); the POS cancels with 'client refusal'. */
export interface CancellationRequest {
  orderId: string;
  stableId: string;
  posOrderId: string | null;
  /** The order's server state when handed out (`claimed`, `create_sending` or `created_verified`). */
  state: string;
  reason: string;
}

/** Body of `POST /pos/v1/orders/{id}/cancel-result`; a rejection needs `detail`. */
export interface CancelResultReport {
  result: 'cancelled' | 'rejected';
  detail?: CancelDetail;
}

/** The server's Order view after a report (the fields the simulator reads; the server sends more). */
export interface PosOrderView {
  id: string;
  state: string;
  posOrderId: string | null;
  deliveryStatus: DeliveryStatus | null;
  cancelState: string;
  cancelDetail: CancelDetail | null;
}
