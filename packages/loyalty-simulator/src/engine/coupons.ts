import type { CouponConfig } from '../config.js';
import { percentOf } from './calculate.js';
import type { CouponReason, EngineDiscount } from './types.js';

/** Codes are matched trimmed and case-insensitively (guests type promo codes by hand). */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Coupons of the config by normalized code, with their single-use state. */
export class CouponBook {
  private readonly byCode = new Map<string, CouponConfig>();
  /** Code → hold id that currently reserves it / that spent it (single-use coupons only). */
  private readonly heldBy = new Map<string, string>();
  private readonly usedBy = new Map<string, string>();

  constructor(coupons: CouponConfig[]) {
    for (const c of coupons) this.byCode.set(normalizeCode(c.code), c);
  }

  /** The configured coupon for a typed code, if any. */
  get(code: string): CouponConfig | undefined {
    return this.byCode.get(normalizeCode(code));
  }

  /**
   * Why the coupon cannot be used now for this organization and subtotal, or null when it can.
   * `exceptHoldId` lets a repeat of the same hold see its own reservation as fine.
   */
  check(code: string, organizationId: string, now: Date, subtotalMinor: number, exceptHoldId?: string): CouponReason | null {
    const c = this.get(code);
    if (!c) return 'not_found';
    if (c.organizations && !c.organizations.includes(organizationId)) return 'not_for_organization';
    if (c.validFrom && now < new Date(c.validFrom)) return 'not_started';
    if (c.validTo && now >= new Date(c.validTo)) return 'expired';
    if (c.minSubtotalMinor !== undefined && subtotalMinor < c.minSubtotalMinor) return 'min_order';
    if (c.singleUse) {
      const n = normalizeCode(code);
      if (this.usedBy.has(n)) return 'used';
      const holder = this.heldBy.get(n);
      if (holder && holder !== exceptHoldId) return 'used';
    }
    return null;
  }

  /** The coupon's discount on `baseMinor` (the order after program discounts), as a discount line. */
  discount(code: string, baseMinor: number): EngineDiscount {
    const c = this.get(code)!;
    const raw = c.percent !== undefined ? percentOf(baseMinor, c.percent) : c.amountMinor!;
    const n = normalizeCode(code);
    return {
      programId: c.programId ?? `coupon-${n}`,
      name: c.name ?? `Promo code ${n}`,
      kind: 'coupon',
      amountMinor: Math.max(0, Math.min(raw, baseMinor)),
      posDiscountId: c.posDiscountId,
    };
  }

  /** Upper bound of a hold on this coupon: a fixed coupon cannot hold more than its value. */
  maxHold(code: string): number {
    const c = this.get(code)!;
    return c.amountMinor ?? Number.MAX_SAFE_INTEGER;
  }

  /** Marks a single-use coupon as reserved by a hold (others see it as `used`). */
  reserve(code: string, holdId: string): void {
    if (this.get(code)?.singleUse) this.heldBy.set(normalizeCode(code), holdId);
  }

  /** On chargeoff a single-use coupon becomes used; on cancel it is free again. */
  settle(code: string, holdId: string, spent: boolean): void {
    const n = normalizeCode(code);
    if (this.heldBy.get(n) === holdId) this.heldBy.delete(n);
    if (spent && this.get(code)?.singleUse) this.usedBy.set(n, holdId);
  }
}
