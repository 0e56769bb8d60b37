/**
 * iiko Cloud speaks money as decimal rubles and quantities as decimal amounts; the engine speaks integer
 * kopecks and thousandths. The conversions round to the nearest unit so binary noise (0.1 + 0.2) never leaks.
 */

/** Kopecks → rubles for the wire (12345 → 123.45). */
export function rub(minor: number): number {
  return minor / 100;
}

/** Rubles from the wire → kopecks (123.45 → 12345). */
export function minor(rubles: number): number {
  return Math.round(rubles * 100);
}

/** Thousandths → decimal amount (1500 → 1.5). */
export function amount(milli: number): number {
  return milli / 1000;
}

/** Decimal amount → thousandths (1.5 → 1500). */
export function milli(value: number): number {
  return Math.round(value * 1000);
}

/** Operation names, used by the `only` list of faults and to tell writes from reads. */
export type Operation =
  | 'calculate'
  | 'customer_info'
  | 'coupon_info'
  | 'hold'
  | 'hold_info'
  | 'cancel_hold'
  | 'chargeoff'
  | 'accrual'
  | 'accrual_info';

/** Writes count against the per-login limit. */
export const WRITE_OPERATIONS: ReadonlySet<Operation> = new Set(['hold', 'cancel_hold', 'chargeoff', 'accrual']);
