import type { ProgramConfig } from '../config.js';
import type { EngineDiscount, EngineGift, EngineLine } from './types.js';

/**
 * Percent of an amount in kopecks, rounded down (the guest never gets more than the program promises).
 * The epsilon absorbs binary noise such as 1234 * 12.3 / 100.
 */
export function percentOf(baseMinor: number, percent: number): number {
  return Math.floor((baseMinor * percent) / 100 + 1e-9);
}

/** Sum of line totals, kopecks. */
export function subtotalOf(lines: EngineLine[]): number {
  return lines.reduce((s, l) => s + l.lineTotalMinor, 0);
}

/**
 * Applies the automatic programs of an organization, in config order. Each discount is capped by what is left
 * of the subtotal, so the total never goes below zero. A program on `productIds` takes only those lines as base.
 */
export function applyPrograms(programs: ProgramConfig[], lines: EngineLine[]): { discounts: EngineDiscount[]; gifts: EngineGift[] } {
  const subtotal = subtotalOf(lines);
  let left = subtotal;
  const discounts: EngineDiscount[] = [];
  const gifts: EngineGift[] = [];
  for (const p of programs) {
    if (p.minSubtotalMinor !== undefined && subtotal < p.minSubtotalMinor) continue;
    const scoped = p.productIds ? lines.filter((l) => p.productIds!.includes(l.productId)) : lines;
    if (scoped.length === 0) continue;
    if (p.type === 'gift') {
      gifts.push({ productId: p.gift!.productId, quantityMilli: p.gift!.quantityMilli, programId: p.id, posDiscountId: p.posDiscountId });
      continue;
    }
    const base = subtotalOf(scoped);
    const raw = p.type === 'percent' ? percentOf(base, p.percent!) : Math.min(p.amountMinor!, base);
    const amount = Math.min(raw, left);
    if (amount <= 0) continue;
    left -= amount;
    discounts.push({ programId: p.id, name: p.name, kind: 'program', amountMinor: amount, posDiscountId: p.posDiscountId });
  }
  return { discounts, gifts };
}

/**
 * Bonus that may be spent: the whole goods part after discounts (not the delivery fee), limited by the balance.
 * Spec: POST /v1/checkout/calculate, rules 1-2.
 */
export function maxBonusSpend(availableMinor: number, goodsAfterDiscountsMinor: number): number {
  return Math.max(0, Math.min(availableMinor, goodsAfterDiscountsMinor));
}

/** Certificate availability for a requested amount: enough, not enough (incl. zero), or unusable. */
export function certificateStatus(availableMinor: number | null, requestedMinor: number): 'available' | 'insufficient' | 'invalid' {
  if (availableMinor === null) return 'invalid';
  return availableMinor >= requestedMinor ? 'available' : 'insufficient';
}
