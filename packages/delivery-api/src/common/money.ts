import type { Money } from '@app/delivery-contract';

export { MAX_AMOUNT_MINOR, Money, NonNegativeMoney } from '@app/delivery-contract';

export const rub = (amountMinor: number): Money => ({ amountMinor, currency: 'RUB' });

/** "1", "0.5", "2.125": digits with up to 3 decimals. Spec: Checkout request items[].quantity, Limits. */
const QUANTITY = /^(0|[1-9]\d{0,5})(\.\d{1,3})?$/;

/**
 * Parses a quantity string exactly into thousandths ("1.5" → 1500), without floating point.
 * Returns null when the string is not a positive quantity with at most 3 decimals (max 999999.999).
 */
export function parseQuantityMilli(q: string): number | null {
  if (!QUANTITY.test(q)) return null;
  const [whole, frac = ''] = q.split('.');
  const milli = Number(whole) * 1000 + Number(frac.padEnd(3, '0'));
  return milli > 0 ? milli : null;
}

/** Thousandths back to the canonical string ("1500" → "1.5"). */
export function formatQuantity(milli: number): string {
  const whole = Math.floor(milli / 1000);
  const frac = String(milli % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/**
 * Line total in kopecks = unit price × quantity, rounded half up to a whole kopeck (the one rounding rule of the
 * service, applied per line; sums are of rounded lines). Integer arithmetic only.
 */
export function lineTotalMinor(unitPriceMinor: number, quantityMilli: number): number {
  return Math.floor((unitPriceMinor * quantityMilli + 500) / 1000);
}
