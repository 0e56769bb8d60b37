import { Type, type Static } from 'typebox';

/**
 * The largest amount the service accepts or computes, in kopecks (2 147 483 647 ≈ 21.4 million ₽): every Money
 * in a request and every line total, subtotal and total of a cart. Larger → 400 invalid_request, the same in
 * calculation and order creation (docs/decisions.md "Largest amount").
 */
export const MAX_AMOUNT_MINOR = 2_147_483_647;

/**
 * Money in the API, the one definition (schema and type): integer kopecks (`amountMinor`, at most
 * MAX_AMOUNT_MINOR) and the only currency, RUB. Spec: Resources, Money.
 */
export const Money = Type.Object(
  { amountMinor: Type.Integer({ maximum: MAX_AMOUNT_MINOR }), currency: Type.Literal('RUB') },
  { additionalProperties: false },
);
export type Money = Static<typeof Money>;

/** Money a client may send where a negative amount makes no sense (bonus to spend). */
export const NonNegativeMoney = Type.Object(
  { amountMinor: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT_MINOR }), currency: Type.Literal('RUB') },
  { additionalProperties: false },
);

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
