import type { EngineWarning, LineItem, RecognizedData } from '../engine.port.js';
import { priceTimesQuantityHolds } from '../validate/line-checks.js';
import type { FieldConfidence } from './items.js';

type Key = 'quantity' | 'price' | 'amount_without_nds' | 'nds_amount' | 'amount_with_nds';

/** Confidence given to a value rebuilt from the arithmetic: proven by other fields, yet not read as printed. */
export const REPAIRED_CONFIDENCE = 0.85;

const fmt = (key: Key, v: number): string => (key === 'quantity' ? v.toFixed(3) : v.toFixed(2)).replace('.', '');

/** True when `a` and `b`, printed alike, differ in exactly one digit position (a single misread digit). */
export function singleDigitDiff(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
  return diff === 1;
}

const k = (x: number): number => Math.round(x * 100);

/**
 * Rule 1 of the spec plus VAT = amount × rate, in kopecks with one kopeck tolerance (quantity × price also as a
 * rounded price, {@link priceTimesQuantityHolds}); nulls skip a check.
 */
export function lineHolds(it: LineItem): boolean {
  const { quantity: q, price: p, amount_without_nds: s, nds_amount: t, amount_with_nds: w } = it;
  const vat = it.nds_exempt ? 0 : t;
  if (q != null && p != null && s != null && !priceTimesQuantityHolds(q, p, s)) return false;
  if (s != null && vat != null && w != null && Math.abs(k(s) + k(vat) - k(w)) > 1) return false;
  if (!it.nds_exempt && it.nds_rate != null && s != null && t != null && Math.abs(Math.round(s * it.nds_rate) - k(t)) > 1) return false;
  return true;
}

function candidates(it: LineItem): [Key, number][] {
  const { quantity: q, price: p, amount_without_nds: s, nds_amount: t, amount_with_nds: w, nds_rate: r } = it;
  const vat = it.nds_exempt ? 0 : t;
  const out: [Key, number][] = [];
  if (q != null && p != null) out.push(['amount_without_nds', Math.round(q * p * 100) / 100]);
  if (w != null && vat != null) out.push(['amount_without_nds', (k(w) - k(vat)) / 100]);
  if (!it.nds_exempt && w != null && s != null) out.push(['nds_amount', (k(w) - k(s)) / 100]);
  if (!it.nds_exempt && r != null && s != null) out.push(['nds_amount', Math.round(s * r) / 100]);
  if (s != null && vat != null) out.push(['amount_with_nds', (k(s) + k(vat)) / 100]);
  if (s != null && q) out.push(['price', Math.round((s / q) * 100) / 100]);
  if (s != null && p) out.push(['quantity', Math.round((s / p) * 1000) / 1000]);
  return out;
}

/**
 * True when `read` is `value` with its decimal separator lost: the same digits, 10–1000 times larger (a photo's
 * "25 800" for the quantity 25,800, "14128" for the price 141,28). Only a value with a fraction qualifies.
 */
function lostSeparator(key: Key, read: number, value: number): boolean {
  if (Number.isInteger(value)) return false;
  const milli = (x: number) => Math.round(x * 1000);
  return [10, 100, 1000].some((f) => (key === 'quantity' || f <= 100) && milli(read) === milli(value * f));
}

/**
 * Repairs a line whose arithmetic fails when exactly one value, changed in exactly one digit, makes every check
 * hold (e.g. 277,15 read for 277,75 while 5 × 55,55 = 277,75), or one value whose decimal separator was lost
 * ({@link lostSeparator}: 25800 read for 25,8 while 1 376,43 ÷ 53,35 = 25,8). Ambiguous or multi-digit differences stay as read:
 * validation reports them. Each repair is an EngineWarning and lowers that field's confidence.
 */
export function repairLine(it: LineItem, i: number, warnings: EngineWarning[], conf: FieldConfidence): void {
  if (lineHolds(it)) return;
  const fixes = new Map<string, [Key, number]>();
  for (const [key, value] of candidates(it)) {
    const read = it[key];
    if (read == null || !(singleDigitDiff(fmt(key, read), fmt(key, value)) || lostSeparator(key, read, value))) continue;
    if (lineHolds({ ...it, [key]: value })) fixes.set(`${key}=${value}`, [key, value]);
  }
  if (fixes.size !== 1) return;
  const [key, value] = [...fixes.values()][0];
  const why = lostSeparator(key, it[key]!, value) ? 'decimal separator lost' : 'one misread digit';
  warnings.push({ field: `items[${i}].${key}`, message: `read ${it[key]}, the line arithmetic gives ${value} (${why}); corrected` });
  it[key] = value;
  conf[`items[${i}].${key}`] = REPAIRED_CONFIDENCE;
}

/**
 * Flags a printed total that is one digit away from the sum of its (consistent) lines, keeping the total as printed
 * (Spec: Validation, rule on totals). One digit apart is either a misread digit of the total or a lost
 * line whose amount is a round number (12 345,00 read as the sum 11 345,00 of the lines found): the data cannot tell
 * them apart, so neither is "corrected"; the warning says which sum the lines give. Validation adds its own
 * "total ≠ sum of lines" remark and cross-check.ts caps the total's confidence.
 */
export function flagTotalsOneDigitOff(data: RecognizedData, warnings: EngineWarning[]): void {
  if (data.items.length === 0 || !data.items.every(lineHolds)) return;
  for (const key of ['amount_without_nds', 'nds_amount', 'amount_with_nds'] as const) {
    const total = data.totals[key];
    const values = data.items.map((it) => (key === 'nds_amount' && it.nds_exempt ? 0 : it[key]));
    if (total == null || values.some((v) => v == null)) continue;
    const sum = values.reduce<number>((a, v) => a + k(v!), 0) / 100;
    if (singleDigitDiff(fmt(key, total), fmt(key, sum)))
      warnings.push({
        field: `totals.${key}`,
        message: `printed ${total}, the lines read sum to ${sum} (one digit apart: a misread digit or a line not read); kept as printed`,
      });
  }
}
