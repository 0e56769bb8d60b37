/**
 * Engine shapes, in kopecks and thousandths (the HTTP layer converts to iiko's rubles and decimal amounts).
 * They mirror the delivery API's loyalty port on purpose: the fake there drives this engine directly.
 */

export interface EngineLine {
  productId: string;
  quantityMilli: number;
  unitPriceMinor: number;
  lineTotalMinor: number;
}

export interface EngineCalcRequest {
  organizationId: string;
  phone?: string;
  lines: EngineLine[];
  coupon?: string;
  certificate?: { serial: string; amountMinor: number };
  bonusToSpendMinor?: number;
  deliveryFeeMinor?: number;
}

export interface EngineDiscount {
  programId: string;
  name: string;
  kind: 'program' | 'coupon';
  amountMinor: number;
  posDiscountId: string | null;
}

export interface EngineGift {
  productId: string;
  quantityMilli: number;
  programId: string;
  posDiscountId: string | null;
}

export type CouponStatus = 'not_requested' | 'applied' | 'invalid';
export type CouponReason = 'not_found' | 'expired' | 'not_started' | 'used' | 'min_order' | 'not_for_organization';

export interface EngineCalcResult {
  subtotalMinor: number;
  programDiscountMinor: number;
  coupon: { status: CouponStatus; discountMinor: number; reason?: CouponReason };
  /** Guest found by phone (null when no phone or unknown). */
  customerId: string | null;
  /** Bonus wallet: available balance (holds subtracted) and what may be spent on this cart. */
  bonus: { walletId: string | null; balanceMinor: number; maxSpendMinor: number };
  certificate?: { status: 'available' | 'insufficient' | 'invalid'; availableMinor: number };
  discounts: EngineDiscount[];
  gifts: EngineGift[];
}

export type WalletType = 'bonus' | 'certificate';

/** A wallet: `balanceMinor` is the booked balance, `heldMinor` the part reserved by open holds. */
export interface Wallet {
  id: string;
  type: WalletType;
  balanceMinor: number;
  heldMinor: number;
  /** Certificates may expire (UTC instant). */
  validTo?: Date;
}

/** A guest (found by phone) or a certificate card (found by its serial as card number). */
export interface Customer {
  id: string;
  phone?: string;
  cardNumber?: string;
  name: string;
  accrualPercent: number;
  wallets: Wallet[];
  /** Guest category name (a level), if any. */
  category?: string;
  /** Coupon codes given to the guest. */
  coupons?: string[];
}

export type HoldStatus = 'held' | 'confirmed' | 'released';

export interface HoldRecord {
  id: string;
  idempotencyKey: string;
  organizationId: string;
  orderRef: string;
  amountMinor: number;
  status: HoldStatus;
  /** Exactly one of the two targets. */
  walletId?: string;
  couponCode?: string;
  createdAt: Date;
}
