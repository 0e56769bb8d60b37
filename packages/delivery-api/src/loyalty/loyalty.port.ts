/**
 * Port to the external loyalty service (iiko Card / iiko Cloud loyalty shape). Checkout and orders depend on
 * this interface only; `loyalty.http.ts` is the real adapter, `test/support/loyalty.fake.ts` the scriptable test double.
 *
 * Units everywhere: money in integer kopecks (`...Minor`), quantities in integer thousandths (`quantityMilli`,
 * "1.5" = 1500), phones in E.164 (`+7` and 10 digits). Every method may throw {@link LoyaltyError}; nothing else
 * escapes an adapter. Decisions where the spec is silent: docs/loyalty.md.
 * Spec: delivery-partner-api.md, POST /v1/checkout/calculate, POST /v1/orders rules 8-11, Loyalty hold legs.
 */

/** Per-call options. `signal` aborts the call (→ `unavailable`/`aborted`); adapters also apply their own timeout. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** One cart line, priced by our catalog (the loyalty service never prices products itself). */
export interface CalculateLine {
  /** POS product uuid (menu item id). */
  productId: string;
  /** Quantity in thousandths, > 0. */
  quantityMilli: number;
  /** Catalog price of one unit, kopecks. */
  unitPriceMinor: number;
  /** unitPrice × quantity rounded to kopecks, as shown in the checkout result. */
  lineTotalMinor: number;
}

/** Cart sent for calculation. Spec: Checkout request. No side effects (nothing is held). */
export interface CalculateRequest {
  /** Loyalty organization id of the point (the route's `organizationId`). */
  organizationId: string;
  /** Guest phone, E.164; absent → no bonus wallet (`bonus` is 0/0). */
  phone?: string;
  lines: CalculateLine[];
  /** Promo code as typed by the guest. */
  coupon?: string;
  /** Bonus spend the guest asked for, kopecks. Informational: it does not change discounts; compare with `maxSpendMinor`. */
  bonusToSpendMinor?: number;
  /** Gift certificate to check (availability only, nothing is spent). */
  certificate?: { serial: string; amountMinor: number };
  /** Delivery fee, kopecks. Never discounted and never payable by bonus (spec: calculate rule 1). */
  deliveryFeeMinor?: number;
}

/** One discount the loyalty service grants. */
export interface LoyaltyDiscount {
  /** Loyalty program (marketing campaign) id; for a coupon, the coupon's program. */
  programId: string;
  name: string;
  /** `program` = automatic discount; `coupon` = granted by the promo code. */
  kind: 'program' | 'coupon';
  /** Discount on the whole order, kopecks, > 0. */
  amountMinor: number;
  /** POS discount type this maps to; null = not mapped → orders answer 422 `loyalty_unmapped` (rule 8). */
  posDiscountId: string | null;
}

/** A free product added by a program. */
export interface LoyaltyGift {
  /** POS product uuid of the gift. */
  productId: string;
  quantityMilli: number;
  programId: string;
  /** POS discount that zeroes the gift line; null = not mapped → 422 `loyalty_unmapped`. */
  posDiscountId: string | null;
}

/** Why a coupon is `invalid` (for logs and warnings; not part of the partner contract). */
export type CouponInvalidReason = 'not_found' | 'expired' | 'not_started' | 'used' | 'min_order' | 'not_for_organization';

/** Result of {@link LoyaltyPort.calculate}. All amounts kopecks. */
export interface CalculateResult {
  /** Sum of automatic program discounts only (coupon excluded). */
  programDiscountMinor: number;
  /** Promo code outcome; its discount is attributed here, never to `programDiscountMinor`. */
  coupon: { status: 'not_requested' | 'applied' | 'invalid'; discountMinor: number; reason?: CouponInvalidReason };
  /** True when the phone belongs to a known guest; false → bonus 0/0 and accrual is impossible. */
  guestFound: boolean;
  /**
   * Bonus wallet: `balanceMinor` available (holds subtracted); `maxSpendMinor` = min(balance, goods total after
   * program and coupon discounts): the whole check may be paid with bonus, the delivery fee may not.
   */
  bonus: { balanceMinor: number; maxSpendMinor: number };
  /** Present when a certificate was sent: `available` (balance ≥ amount), `insufficient` (balance < amount, also 0), `invalid` (unknown or expired). */
  certificate?: { status: 'available' | 'insufficient' | 'invalid'; availableMinor: number };
  /** Every discount line (program and coupon), for mapping to POS discounts. */
  discounts: LoyaltyDiscount[];
  gifts: LoyaltyGift[];
}

/** What a hold leg reserves. Spec: Loyalty hold legs (per coupon and per bonus; certificate likewise). */
export type HoldKind = 'coupon' | 'bonus' | 'certificate';

/** One hold leg. */
export interface HoldRequest {
  /** Unique per leg and order attempt (e.g. `<legId>`); the same key again returns the same hold. 1-128 chars. */
  idempotencyKey: string;
  kind: HoldKind;
  organizationId: string;
  /** Required for `bonus`. */
  phone?: string;
  /** Our order reference (stored by the service as the order id/comment; for support). */
  orderRef: string;
  /** Kopecks to reserve, > 0: the coupon discount, the bonus spend or the certificate spend. */
  amountMinor: number;
  /** Required for `coupon`. */
  coupon?: string;
  /** Required for `certificate`. */
  certificateSerial?: string;
}

/** A hold as the service recorded it. */
export interface Hold {
  holdId: string;
  /** Kopecks actually held (equal to the request; partial holds do not exist). */
  amountMinor: number;
}

/** Lifecycle of a hold in the loyalty service. */
export type HoldStatus = 'held' | 'confirmed' | 'released';

/** Accrual of bonus points after delivery. Spec: States, `Delivered`/`Closed` → accrue. */
export interface AccrueRequest {
  /** One per order (e.g. `accrue:<orderId>`); a repeat returns the first outcome. */
  idempotencyKey: string;
  organizationId: string;
  phone: string;
  orderRef: string;
  /** What the guest paid in money (bonus and certificate excluded), kopecks, ≥ 0. */
  paidMinor: number;
}

/** A guest's loyalty profile at one organization (customer/info). Money in kopecks. */
export interface GuestLoyalty {
  /** Balances per program wallet (bonus wallet and others), available amount (held subtracted). */
  wallets: { id: string; name: string | null; type: string; balanceMinor: number }[];
  /** Active categories (levels) of the guest. */
  categories: { id: string; name: string }[];
  /** Coupons of the guest usable now: percent or fixed discount. */
  coupons: { number: string; name: string | null; percent: number | null; amountMinor: number | null; validTo: string | null }[];
}

/** The loyalty service, as checkout and orders see it. */
export interface LoyaltyPort {
  /** Prices loyalty for a cart without side effects. Errors: `unavailable` (incl. organization not connected), `rate_limited`. */
  calculate(req: CalculateRequest, opts?: CallOptions): Promise<CalculateResult>;
  /**
   * Reserves one leg. Idempotent by `idempotencyKey`: a repeat returns the same hold in its current `status` (a
   * hold released or spent since is answered so, not as `held`); a repeat with different
   * kind/amount/target is `rejected`/`idempotency_conflict`. Errors: `rejected` (invalid coupon, insufficient
   * balance, invalid certificate, unknown guest), `unavailable` (outcome unknown: read back with {@link getHold}),
   * `rate_limited`.
   */
  hold(req: HoldRequest, opts?: CallOptions): Promise<Hold & { status: HoldStatus }>;
  /** Reads back a hold by its idempotency key (after an unknown outcome); null = the service never recorded it. */
  getHold(idempotencyKey: string, opts?: CallOptions): Promise<(Hold & { status: HoldStatus }) | null>;
  /** Charges a held leg off (spends it). Idempotent; `rejected`/`hold_state` if it was released, `hold_not_found` if unknown. */
  confirm(req: { holdId: string; idempotencyKey: string }, opts?: CallOptions): Promise<void>;
  /** Cancels a hold (returns the amount). Idempotent; `rejected`/`hold_state` if it was already confirmed. */
  release(req: { holdId: string; idempotencyKey: string }, opts?: CallOptions): Promise<void>;
  /** Accrues bonus for a delivered order. Idempotent by key. `rejected`/`guest_not_found` for an unknown phone. */
  accrue(req: AccrueRequest, opts?: CallOptions): Promise<{ accruedMinor: number }>;
  /** Reads back an accrual by key; null = never recorded (safe to call accrue again with the same key). */
  getAccrual(idempotencyKey: string, opts?: CallOptions): Promise<{ accruedMinor: number } | null>;
  /** The guest's balances, categories and coupons (a read); null when the service knows no guest with this phone. Errors: `unavailable`, `rate_limited`. */
  guestLoyalty(organizationId: string, phone: string, opts?: CallOptions): Promise<GuestLoyalty | null>;
}

/** Stable error codes of the port (CONVENTIONS: a code survives process boundaries, `instanceof` does not). */
export type LoyaltyErrorCode = 'unavailable' | 'rejected' | 'rate_limited';

/** Finer cause, for logs, metrics and the few decisions that need it (e.g. not_connected vs timeout). */
export type LoyaltyErrorReason =
  | 'timeout'
  | 'network'
  | 'server_error'
  | 'not_connected'
  | 'aborted'
  | 'bad_response'
  | 'auth'
  | 'coupon_invalid'
  | 'insufficient_balance'
  | 'certificate_invalid'
  | 'guest_not_found'
  | 'hold_not_found'
  | 'hold_state'
  | 'idempotency_conflict'
  | 'rejected'
  | 'write_limit';

/**
 * The one error type of the port. Mapping to the partner API (done by checkout/orders, not here):
 * `unavailable` → 503 `loyalty_unavailable` (or `loyaltyUnavailable: true` in calculate), `rejected` → 422
 * `loyalty_rejected`, `rate_limited` → retry after `retryAfterSeconds` (a hold leg stays `failed`/retriable).
 */
export class LoyaltyError extends Error {
  override readonly name = 'LoyaltyError';
  constructor(
    readonly code: LoyaltyErrorCode,
    readonly reason: LoyaltyErrorReason,
    message?: string,
    /** Seconds to wait, from the service's Retry-After; set for `rate_limited`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message ?? `${code}: ${reason}`);
  }
}

/** Narrowing by code rather than `instanceof` (works across module copies and workers). */
export function isLoyaltyError(e: unknown): e is LoyaltyError {
  return e instanceof Error && e.name === 'LoyaltyError' && typeof (e as { code?: unknown }).code === 'string';
}
