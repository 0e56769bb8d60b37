import type { CalculateResult, LoyaltyDiscount } from '../loyalty/loyalty.port.js';

/**
 * What one order attempt already holds in the loyalty service (a retry of the same body). The loyalty service
 * counts these holds against the guest (bonus balance net of holds, a single-use coupon reserved), so a fresh
 * calculation must give them back to this order. Amounts in kopecks. Spec: Loyalty hold legs ("a held leg is
 * reused with its recorded amount").
 */
export interface OwnHolds {
  /** The held coupon leg: its amount and the discount line recorded when it was held. */
  coupon?: { amountMinor: number; discount: LoyaltyDiscount | null };
  bonusMinor?: number;
  certificateMinor?: number;
}

export const NO_OWN_HOLDS: OwnHolds = {};

/**
 * The loyalty result as this attempt sees it: its own held bonus and certificate amounts are available again,
 * and a coupon it holds counts as applied with the held amount (the service reports a reserved single-use coupon
 * as invalid). The bonus ceiling is the balance; the calculator caps it by the goods total as always.
 */
export function withOwnHolds(r: CalculateResult, own: OwnHolds, certificateRequestedMinor?: number): CalculateResult {
  if (!own.coupon && !own.bonusMinor && !own.certificateMinor) return r;
  let out: CalculateResult = r;
  if (own.coupon && r.coupon.status !== 'applied' && own.coupon.discount) {
    out = {
      ...out,
      coupon: { status: 'applied', discountMinor: own.coupon.amountMinor },
      discounts: [...out.discounts.filter((d) => d.kind !== 'coupon'), { ...own.coupon.discount, amountMinor: own.coupon.amountMinor }],
    };
  }
  if (own.bonusMinor) {
    const balance = r.bonus.balanceMinor + own.bonusMinor;
    out = { ...out, bonus: { balanceMinor: balance, maxSpendMinor: Math.max(r.bonus.maxSpendMinor, balance) } };
  }
  if (own.certificateMinor && r.certificate && r.certificate.status !== 'invalid') {
    const available = r.certificate.availableMinor + own.certificateMinor;
    const enough = certificateRequestedMinor === undefined || available >= certificateRequestedMinor;
    out = { ...out, certificate: { status: enough ? 'available' : 'insufficient', availableMinor: available } };
  }
  return out;
}
