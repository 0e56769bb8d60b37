import type { EngineWarning, LineItem, RecognizedData } from '../engine.port.js';
import { priceTimesQuantityHolds } from '../validate/line-checks.js';
import type { FormColumns } from './columns.js';
import { numericText, type FieldConfidence } from './items.js';
import { digitsOf } from './numbers.js';
import type { RawRow } from './table.js';

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

/**
 * True when `read` is `value` with its decimal separator lost: the same digits, 10–1000 times larger (a photo's
 * "25 800" for the quantity 25,800, "14128" for the price 141,28). A whole value only by the factor its printed
 * decimals give (a quantity printed "40,000" read 40000, an amount "10 666,00" read 1066600): 10 read for 1 is an
 * extra digit, not a lost comma.
 */
function lostSeparator(key: Key, read: number, value: number): boolean {
  const milli = (x: number) => Math.round(x * 1000);
  const factors = Number.isInteger(value) ? [key === 'quantity' ? 1000 : 100] : key === 'quantity' ? [10, 100, 1000] : [10, 100];
  return factors.some((f) => milli(read) === milli(value * f));
}

/** The line's five amounts: the unknowns of its three equations (net = quantity × price, VAT = net × rate, gross = net + VAT). */
const KEYS: Key[] = ['quantity', 'price', 'amount_without_nds', 'nds_amount', 'amount_with_nds'];

/**
 * The line with the values of `unknown` computed from the others by its equations, propagated until nothing
 * changes (net from quantity × price or gross − VAT; VAT from net × rate or gross − net; gross from net + VAT;
 * quantity and price from net and the other). Null when the known values do not determine every unknown.
 */
function solve(it: LineItem, unknown: Set<Key>): LineItem | null {
  const v: Record<Key, number | null> = {
    quantity: unknown.has('quantity') ? null : it.quantity,
    price: unknown.has('price') ? null : it.price,
    amount_without_nds: unknown.has('amount_without_nds') ? null : it.amount_without_nds,
    nds_amount: it.nds_exempt ? 0 : unknown.has('nds_amount') ? null : it.nds_amount,
    amount_with_nds: unknown.has('amount_with_nds') ? null : it.amount_with_nds,
  };
  const r = it.nds_exempt ? 0 : it.nds_rate;
  for (let pass = 0; pass < 3; pass++) {
    if (v.amount_without_nds == null && v.quantity != null && v.price != null) v.amount_without_nds = k(v.quantity * v.price) / 100;
    if (v.amount_without_nds == null && v.amount_with_nds != null && v.nds_amount != null)
      v.amount_without_nds = (k(v.amount_with_nds) - k(v.nds_amount)) / 100;
    const s = v.amount_without_nds;
    if (v.nds_amount == null && s != null && r != null) v.nds_amount = Math.round(s * r) / 100;
    if (v.nds_amount == null && s != null && v.amount_with_nds != null) v.nds_amount = (k(v.amount_with_nds) - k(s)) / 100;
    if (v.amount_with_nds == null && s != null && v.nds_amount != null) v.amount_with_nds = (k(s) + k(v.nds_amount)) / 100;
    if (v.quantity == null && s != null && v.price) v.quantity = Math.round((s / v.price) * 1000) / 1000;
    if (v.price == null && s != null && v.quantity) v.price = k(s / v.quantity) / 100;
  }
  if (KEYS.some((key) => v[key] == null || v[key]! < 0)) return null;
  return { ...it, ...v, nds_amount: it.nds_exempt ? it.nds_amount : v.nds_amount };
}

/** Every way of choosing `size` of `keys`, in order. */
function choose<T>(keys: T[], size: number): T[][] {
  if (size === 0) return [[]];
  return keys.flatMap((key, i) => choose(keys.slice(i + 1), size - 1).map((rest) => [key, ...rest]));
}

/** How a read value may differ from the line's arithmetic and still be that value misread; null when it may not. */
function misreadKind(key: Key, read: number, value: number): string | null {
  if (singleDigitDiff(fmt(key, read), fmt(key, value))) return 'one misread digit';
  return lostSeparator(key, read, value) ? 'decimal separator lost' : null;
}

/** The numeric cells of a line as read (numbers.ts spelling), by amount; what {@link separatorReadings} reinterprets. */
export type LineReadings = Partial<Record<Key, string>>;

/** The amounts' cell texts of a raw row as read ({@link numericText}), for {@link repairLine}. */
export function lineReadings(row: RawRow, form: FormColumns): LineReadings {
  const out: LineReadings = {};
  for (const [label, cell] of row) {
    const f = form.fields[label];
    if (f === 'quantity' || f === 'price' || f === 'amount_without_nds' || f === 'nds_amount' || f === 'amount_with_nds') out[f] = numericText(cell);
  }
  return out;
}

/**
 * Other values the digits of a numeric cell can stand for when a photo lost its separators: the forms print money
 * with kopecks, so an amount's digits are D / 100 ("140 88", "69300" for 140,88 and 693,00); a quantity has three
 * decimals, two, one or none ("350 125" for 350,125). Look-alike letters count as their digits (numbers.ts).
 */
export function separatorReadings(key: Key, text: string | undefined): number[] {
  const d = digitsOf(text ?? '');
  if (d.length < 2 || d.length > 12) return [];
  const n = Number(d);
  return key === 'quantity' ? [n, n / 10, n / 100, n / 1000] : d.length >= 3 ? [n / 100] : [];
}

/** Every combination of one option per key (`null`: the key is unknown). */
function combinations(options: [Key, (number | null)[]][]): Partial<Record<Key, number | null>>[] {
  return options.reduce<Partial<Record<Key, number | null>>[]>(
    (acc, [key, values]) => acc.flatMap((c) => values.map((v) => ({ ...c, [key]: v }))),
    [{}],
  );
}

/**
 * Repairs a line whose arithmetic fails or whose amounts were not all read, by the fewest changes that make every
 * check hold. Each amount is taken as parsed or, given the cell's text (`readings`), as its digits with the
 * separators a photo lost put back ({@link separatorReadings}); an amount that did not parse is unknown and computed
 * from the line. Beyond that, read values are taken as misread only when each differs from the computed value in
 * exactly one digit (277,15 read for 277,75 while 5 × 55,55 = 277,75) or by a lost decimal separator
 * ({@link lostSeparator}: 25800 read for 25,8 while 1 376,43 ÷ 53,35 = 25,8). At most two unknowns in all when the
 * line has a VAT rate (three equations for five amounts: two unknowns leave one equation that checks them), one
 * otherwise. Of the lines that hold with as few misread values, those computing the fewest unknowns count; when two
 * of them differ, nothing changes: validation reports the disagreement. Each change is an
 * EngineWarning and sets that field's confidence to {@link REPAIRED_CONFIDENCE}.
 */
export function repairLine(it: LineItem, i: number, warnings: EngineWarning[], conf: FieldConfidence, readings: LineReadings = {}): void {
  const relevant = KEYS.filter((key) => !(key === 'nds_amount' && it.nds_exempt));
  if (relevant.every((key) => it[key] != null) && lineHolds(it)) return;
  const maxUnknown = !it.nds_exempt && it.nds_rate != null ? 2 : 1;
  const alternatives = new Map(relevant.map((key) => [key, separatorReadings(key, readings[key])]));
  const options = relevant.map((key): [Key, (number | null)[]] => {
    const own = it[key];
    const values = [...new Set([...(own == null ? [null] : [own]), ...alternatives.get(key)!])];
    return [key, values];
  });
  for (let misread = 0; misread <= maxUnknown; misread++) {
    const found = new Map<string, { line: LineItem; why: Map<Key, string>; unknown: number }>();
    for (const combo of combinations(options)) {
      const base: LineItem = { ...it, ...combo };
      const unread = relevant.filter((key) => base[key] == null);
      if (unread.length + misread > maxUnknown) continue;
      for (const guess of choose(
        relevant.filter((key) => base[key] != null),
        misread,
      )) {
        const line = solve(base, new Set([...unread, ...guess]));
        if (!line || !lineHolds(line)) continue;
        const kinds = guess.map((key) => misreadKind(key, base[key]!, line[key]!));
        if (kinds.some((kind) => kind == null)) continue;
        const why = new Map<Key, string>();
        for (const key of relevant) {
          if (line[key] === it[key]) continue;
          const g = guess.indexOf(key);
          why.set(key, g >= 0 ? kinds[g]! : alternatives.get(key)!.includes(line[key]!) ? 'decimal separator lost' : 'not read');
        }
        const id = KEYS.map((key) => line[key]).join('|');
        if ((found.get(id)?.unknown ?? Infinity) > unread.length) found.set(id, { line, why, unknown: unread.length });
      }
    }
    // A value computed from the line is checked by no equation of its own (a price from net ÷ quantity fits any
    // quantity), so of the lines that hold, those that computed fewest values stand; two of them disagreeing is ambiguity.
    const fewest = Math.min(...[...found.values()].map((f) => f.unknown));
    const best = [...found.values()].filter((f) => f.unknown === fewest);
    if (best.length > 1) return;
    const [fix] = best;
    if (!fix) continue;
    for (const [key, why] of fix.why) {
      const value = fix.line[key]!;
      const was = readings[key] != null ? `read "${readings[key]}"` : it[key] == null ? 'not read' : `read ${it[key]}`;
      warnings.push({ field: `items[${i}].${key}`, message: `${was}, the line arithmetic gives ${value} (${why}); corrected` });
      it[key] = value;
      conf[`items[${i}].${key}`] = REPAIRED_CONFIDENCE;
    }
    return;
  }
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
