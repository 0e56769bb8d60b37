import type { LineItem } from '../engine.port.js';
import type { CalendarDate } from './dates-vat.js';
import { vatRatesInForce } from './dates-vat.js';
import { checkUnit } from './okei.js';
import type { Warning } from '@app/recognition-contract';

/** Roubles (as printed, kopecks in decimals) → integer kopecks, so comparisons are exact. */
export const kopecks = (rub: number): number => Math.round(rub * 100);

/** Allowed difference per line: 0.01 RUB (one kopeck) for rounding of printed amounts. */
export const LINE_TOLERANCE_KOPECKS = 1;

/**
 * Rule 1's `quantity × price = amount_without_nds` as real 1C documents satisfy it: within one kopeck, or the price
 * is the amount divided by the quantity rounded to kopecks. The second case is a price that includes VAT (or a
 * price computed back from the amount): 1C prints the per-unit price without VAT rounded, so quantity × price may
 * miss the amount by up to quantity × 0.005 RUB (docs/decisions.md, "Reading real documents"). Roubles in, as printed.
 */
export function priceTimesQuantityHolds(q: number, p: number, net: number): boolean {
  if (Math.abs(Math.round(q * p * 100) - kopecks(net)) <= LINE_TOLERANCE_KOPECKS) return true;
  return q > 0 && Math.round((net / q) * 100) === kopecks(p);
}

/**
 * Checks one item line: rule 1 line math (`amount_without_nds + nds_amount = amount_with_nds`,
 * `quantity * price = amount_without_nds`, each within 0.01 RUB, the price also as amount / quantity rounded:
 * {@link priceTimesQuantityHolds}), rule 5 VAT rate in force on the document date,
 * and beyond the spec: VAT amount = amount × rate, OKEI unit code/name, and an empty quantity, price or amount.
 * Pushes `{field, message}` warnings.
 */
export function checkLine(item: LineItem, i: number, date: CalendarDate | null, out: Warning[]): void {
  const f = (name: string) => `items[${i}].${name}`;
  const { quantity: q, price: p, amount_without_nds: net, nds_amount: vat, amount_with_nds: gross } = item;
  // An empty value skips the checks below, so it is a finding of its own: a cell the reader lost must not pass as
  // a line that holds (the scan tier lost amounts without any warning).
  for (const [name, what, v] of [
    ['quantity', 'quantity', q],
    ['price', 'price', p],
    ['amount_without_nds', 'amount without VAT', net],
    ['amount_with_nds', 'amount with VAT', gross],
  ] as const)
    if (v == null) out.push({ field: f(name), message: `${what} is empty` });
  if (!item.nds_exempt && vat == null) out.push({ field: f('nds_amount'), message: 'VAT amount is empty' });
  if (net != null && vat != null && gross != null && Math.abs(kopecks(net) + kopecks(vat) - kopecks(gross)) > LINE_TOLERANCE_KOPECKS) {
    out.push({ field: f('amount_with_nds'), message: `amount without VAT ${net} + VAT ${vat} ≠ amount with VAT ${gross}` });
  }
  if (q != null && p != null && net != null && !priceTimesQuantityHolds(q, p, net)) {
    out.push({ field: f('amount_without_nds'), message: `quantity ${q} × price ${p} ≠ amount without VAT ${net}` });
  }
  if (item.nds_exempt) {
    if (vat != null && vat !== 0) out.push({ field: f('nds_amount'), message: `line is "без НДС" but carries VAT ${vat}` });
  } else if (item.nds_rate == null) {
    out.push({ field: f('nds_rate'), message: 'VAT rate is missing (neither a rate nor "без НДС")' });
  } else {
    const allowed = vatRatesInForce(date);
    if (!allowed.includes(item.nds_rate)) {
      out.push({
        field: f('nds_rate'),
        message: `VAT rate ${item.nds_rate}% is not in force on the document date (allowed: ${allowed.join(', ')}%)`,
      });
    } else if (net != null && vat != null && Math.abs(Math.round(net * item.nds_rate) - kopecks(vat)) > LINE_TOLERANCE_KOPECKS) {
      out.push({ field: f('nds_amount'), message: `VAT ${vat} ≠ ${item.nds_rate}% of ${net}` });
    }
  }
  if (item.unit.code != null && item.unit.code.trim() !== '') {
    const unit = checkUnit(item.unit.code, item.unit.name);
    if (unit === 'unknown_code') out.push({ field: f('unit.code'), message: `unknown OKEI unit code "${item.unit.code}"` });
    if (unit === 'name_mismatch') out.push({ field: f('unit.name'), message: `unit "${item.unit.name}" does not match OKEI code ${item.unit.code}` });
  }
}
