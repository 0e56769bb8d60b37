import type { DocumentType } from '../engine.port.js';
import { centerX, median, type TextLine, type VerticalRule, type Word } from './words.js';

/** Item fields a table column can feed. */
export type ItemField =
  | 'product_code'
  | 'number'
  | 'name'
  | 'unit_code'
  | 'unit_name'
  | 'quantity'
  | 'price'
  | 'amount_without_nds'
  | 'nds_rate'
  | 'nds_amount'
  | 'amount_with_nds';

/** A form's item table: its column-number labels left to right and which label feeds which field. */
export interface FormColumns {
  labels: string[];
  fields: Partial<Record<string, ItemField>>;
}

const UPD_FIELDS: Partial<Record<string, ItemField>> = {
  А: 'product_code',
  '1': 'number',
  '1а': 'name',
  '2': 'unit_code',
  '2а': 'unit_name',
  '3': 'quantity',
  '4': 'price',
  '5': 'amount_without_nds',
  '7': 'nds_rate',
  '8': 'nds_amount',
  '9': 'amount_with_nds',
};

/**
 * Column layouts of the three forms: UPD (Decree 1137 annex as used for УПД: А, 1, 1а … 11), invoice (same form
 * without the product-code column А) and TORG-12 (columns 1–15, OKUD 0330212).
 */
export const FORMS: Record<DocumentType, FormColumns> = {
  upd: { labels: ['А', '1', '1а', '1б', '2', '2а', '3', '4', '5', '6', '7', '8', '9', '10', '10а', '11'], fields: UPD_FIELDS },
  invoice: { labels: ['1', '1а', '1б', '2', '2а', '3', '4', '5', '6', '7', '8', '9', '10', '10а', '11'], fields: { ...UPD_FIELDS, А: undefined } },
  torg12: {
    labels: Array.from({ length: 15 }, (_, i) => String(i + 1)),
    fields: {
      '1': 'number',
      '2': 'name',
      '3': 'product_code',
      '4': 'unit_name',
      '5': 'unit_code',
      '10': 'quantity',
      '11': 'price',
      '12': 'amount_without_nds',
      '13': 'nds_rate',
      '14': 'nds_amount',
      '15': 'amount_with_nds',
    },
  },
};

/** OCR spellings of column labels: Latin look-alikes, "б" read as "6", "а" as "a". */
export function normalizeLabel(text: string): string {
  const t = text.replace(/[|.,:;()]/g, '').trim();
  // rus+eng spellings too: "la"/"Ia" for "1а", "1b" for "1б".
  const t1 = t.replace(/^[lI|](?=\d?[aаб6b]?$)/, '1').replace(/^(\d)b$/, '$1б');
  const fixed = t1
    .replace(/^[AА]$/, 'А')
    .replace(/a$/, 'а')
    .replace(/^(\d)6$/, '$1б')
    .replace(/^(\d{1,2})[aа]$/, '$1а');
  return fixed;
}

const LABEL_RE = /^(?:\d{1,2}[аaб6]?|[AА])$/;

/** The column-number row found on a page: label → x centre (page px), and the row's vertical position. */
export interface ColumnRow {
  centers: Map<string, number>;
  /** Column spans between the image's vertical rules, when rules were found: label → [left, right]. */
  spans?: Map<string, [number, number]>;
  lineIndex: number;
  y: number;
  /** Labels read on the row as spelled (not by position, not interpolated), and the row's tokens: how well the form fits. */
  matched?: number;
  tokens?: number;
}

/**
 * Aligns a line's tokens with the form's labels in order (tolerating one or two misread or missing tokens) and
 * interpolates the centres of labels that were not read between two that were. Returns how many matched.
 */
function align(line: TextLine, labels: string[]): { centers: Map<string, number>; matched: number; exact: number; tokens: number } {
  const all = line.words.filter((w) => !/^[|│¦_—–-]+$/.test(w.text)).map((w) => ({ label: normalizeLabel(w.text), x: centerX(w) }));
  const tokens = all.filter((t) => LABEL_RE.test(t.label));
  const found = new Map<number, number>();
  let j = 0;
  for (const t of tokens) {
    for (let k = j; k < Math.min(labels.length, j + 3); k++) {
      if (labels[k] === t.label) {
        found.set(k, t.x);
        j = k + 1;
        break;
      }
    }
  }
  const exact = found.size;
  // When the counts agree and most tokens matched, position decides (robust to misreads like "3"→"з", "1б"→"16").
  if (all.length === labels.length && found.size >= labels.length * 0.6) for (const [k, t] of all.entries()) found.set(k, t.x);
  const centers = new Map<string, number>();
  const idx = [...found.keys()].sort((a, b) => a - b);
  for (let a = 0; a < idx.length; a++) {
    centers.set(labels[idx[a]], found.get(idx[a])!);
    const b = idx[a + 1];
    if (b === undefined) continue;
    for (let k = idx[a] + 1; k < b; k++) {
      const x0 = found.get(idx[a])!;
      centers.set(labels[k], x0 + ((found.get(b)! - x0) * (k - idx[a])) / (b - idx[a]));
    }
  }
  return { centers, matched: found.size, exact, tokens: all.length };
}

/**
 * Finds the column-number row of `form` among the page's lines: the line that aligns with most labels (≥ 60 %).
 * When none does and the page's vertical rules are given, falls back to the row's shape ({@link rowByShape}).
 */
export function findColumnRow(lines: TextLine[], form: FormColumns, rules?: VerticalRule[]): ColumnRow | null {
  let best: ColumnRow | null = null;
  let bestScore = 0;
  lines.forEach((line, i) => {
    if (line.words.length < form.labels.length * 0.5) return;
    const { centers, matched, exact, tokens } = align(line, form.labels);
    if (matched >= form.labels.length * 0.6 && matched > bestScore) {
      bestScore = matched;
      best = { centers, lineIndex: i, y: line.cy, matched: exact, tokens };
    }
  });
  if (best || !rules || rules.length === 0) return best;
  return rowByShape(lines, form, rules) ?? rowByRules(lines, form, rules);
}

/**
 * The x positions of the vertical rules crossing height `y` or ending at most `reach` px above it, a rule traced
 * twice a few px apart counted once.
 */
function rulesAt(rules: VerticalRule[], y: number, minGap: number, reach = 0): number[] {
  const xs: number[] = [];
  for (const x of rules
    .filter((r) => r.top <= y && r.bottom >= y - reach)
    .map((r) => r.x)
    .sort((a, b) => a - b))
    if (xs.length === 0 || x - xs[xs.length - 1] > minGap) xs.push(x);
  return xs;
}

/**
 * The column layout of a photo whose column-number row is not read at all (6-pt digits squeezed between two thick
 * rules, which Tesseract drops as a line): the first text line crossed by exactly as many rule-bounded cells as the
 * form has columns (both outer borders found) whose "№ п/п" cell holds the line number 1 (one stray glyph allowed) is the first item row; the
 * labels are given to the cells by position and the row before it stands for the column-number row. Null when no
 * line has that shape.
 */
export function rowByRules(lines: TextLine[], form: FormColumns, rules: VerticalRule[]): ColumnRow | null {
  const n = form.labels.length;
  // The "№ п/п" column: the first on ТОРГ-12 and the invoice, the second (after the code, А) on the UPD.
  const num = Math.max(
    0,
    form.labels.findIndex((l) => form.fields[l] === 'number'),
  );
  for (const [i, line] of lines.entries()) {
    if (i === 0) continue;
    const h = line.words[0].height;
    // A rule counts when it crosses the line or breaks off just above it: on a blurred photo a column border's trace
    // often stops at the column-number row, and a table's outer border may be traced only beside the header.
    const xs = rulesAt(rules, line.cy, 0.5 * h, 4 * median(line.words.map((w) => w.height)));
    // A photo's page edge or a double outer border makes an empty cell outside the table: not a column when there
    // is one cell too many, or when it is narrower than the forms' narrowest column ("№", over 3 text heights).
    const sliver = (a: number, b: number) =>
      (xs.length > n + 1 || b - a < 2.5 * h) && !line.words.some((w) => centerX(w) > a && centerX(w) < b && !RULE_TRACE.test(w.text));
    while (xs.length > 1 && sliver(xs[xs.length - 2], xs[xs.length - 1])) xs.pop();
    while (xs.length > 1 && sliver(xs[0], xs[1])) xs.shift();
    if (xs.length !== n + 1) continue;
    const first = line.words
      .filter((w) => centerX(w) > xs[num] && centerX(w) < xs[num + 1] && !RULE_TRACE.test(w.text))
      .map((w) => w.text)
      .join('');
    // The number with at most one glyph the blur added (`1.`, `1}`), never another number or a word.
    if (!/^1[^\p{L}\d]?$/u.test(first)) continue;
    // An item's name has a word; the column-number row's "1а" cell (read as "ла") does not.
    const name = line.words.filter((w) => centerX(w) > xs[num + 1] && centerX(w) < xs[num + 2]).map((w) => w.text);
    if (!name.some((t) => /\p{L}{3}/u.test(t))) continue;
    const centers = new Map<string, number>();
    const spans = new Map<string, [number, number]>();
    form.labels.forEach((label, k) => {
      centers.set(label, (xs[k] + xs[k + 1]) / 2);
      spans.set(label, [xs[k], xs[k + 1]]);
    });
    // Above the first item by more than a text height: the name column's words are those below y + h (name-column.ts).
    const y = Math.min(lines[i - 1].cy, line.cy - 1.5 * h);
    return { centers, spans, lineIndex: i - 1, y, matched: 0, tokens: 0 };
  }
  return null;
}

/** What is left of an erased rule: not a cell's content. */
const RULE_TRACE = /^[|│¦]+$/;

/**
 * The column-number row of a blurred photo by its shape, when its labels are unreadable (`А 1 1а 1б 2 …` comes back
 * as `^ ) а мат: 2 а п 8 5 % 7 О * 10 да 1`): a line of short tokens only (≤ 4 characters, at least 90 % of them
 * ≤ 3), one in each cell between the vertical rules crossing it, filling exactly as many cells as the form has
 * columns, with at least one token read as the label of its position. Labels are then given by position and
 * each takes its rule-bounded cell as its span. Of several such lines the upper one wins (the row sits above the
 * items, whose cells also hold short tokens). Null when no line has that shape.
 */
export function rowByShape(lines: TextLine[], form: FormColumns, rules: VerticalRule[]): ColumnRow | null {
  const n = form.labels.length;
  for (const [i, line] of lines.entries()) {
    const words = line.words.filter((w) => !RULE_TRACE.test(w.text));
    if (words.length < n * 0.6 || words.length > n + 3) continue;
    if (words.some((w) => w.text.length > 4) || words.filter((w) => w.text.length <= 3).length < 0.9 * words.length) continue;
    // A rule traced twice a few px apart is one border; the table's outer border may be missing (it runs into the
    // page edge of a photo), so a token beyond the first or last rule has an open cell there.
    const xs: number[] = [];
    for (const x of rules
      .filter((r) => r.top <= line.cy && r.bottom >= line.cy)
      .map((r) => r.x)
      .sort((a, b) => a - b))
      if (xs.length === 0 || x - xs[xs.length - 1] > 0.5 * line.words[0].height) xs.push(x);
    const cells = new Map<number, Word[]>();
    for (const w of words) {
      const found = xs.findIndex((x) => x > centerX(w));
      const c = found < 0 ? xs.length : found;
      cells.set(c, [...(cells.get(c) ?? []), w]);
    }
    // A double outer border makes a narrow extra cell, where Tesseract reads a bracket or a speck.
    const speck = (c: number) => cells.get(c)!.every((w) => !/[\p{L}\d]/u.test(w.text));
    while (cells.size > n) {
      const ends = [Math.min(...cells.keys()), Math.max(...cells.keys())].filter(speck);
      if (ends.length === 0) break;
      cells.delete(ends[0]);
    }
    if (cells.size !== n) continue;
    const order = [...cells.keys()].sort((a, b) => a - b);
    const exact = order.filter((c, k) => cells.get(c)!.some((w) => normalizeLabel(w.text) === form.labels[k])).length;
    if (exact < 1) continue;
    const centers = new Map<string, number>();
    const spans = new Map<string, [number, number]>();
    order.forEach((c, k) => {
      const left = c > 0 ? xs[c - 1] : -Infinity;
      const right = c < xs.length ? xs[c] : Infinity;
      const ws = cells.get(c)!;
      centers.set(form.labels[k], Number.isFinite(left + right) ? (left + right) / 2 : median(ws.map(centerX)));
      spans.set(form.labels[k], [left, right]);
    });
    return { centers, spans, lineIndex: i, y: line.cy, matched: exact, tokens: words.length };
  }
  return null;
}

/**
 * Adds rule-based spans to a column row: the vertical rules crossing the column-number row split the table into
 * cells, and each cell holding exactly one label centre becomes that label's span. Text is then assigned by the
 * printed borders rather than by the nearest centre, which misplaces short left-aligned names in wide columns.
 */
export function withRuleSpans(row: ColumnRow, rules: VerticalRule[] | undefined): ColumnRow {
  if (!rules || rules.length === 0) return row;
  const xs = rules
    .filter((r) => r.top <= row.y && r.bottom >= row.y)
    .map((r) => r.x)
    .sort((a, b) => a - b);
  const spans = new Map<string, [number, number]>();
  for (let i = 1; i < xs.length; i++) {
    const inside = [...row.centers].filter(([, cx]) => cx > xs[i - 1] && cx < xs[i]);
    if (inside.length === 1) spans.set(inside[0][0], [xs[i - 1], xs[i]]);
  }
  return spans.size >= row.centers.size / 2 ? { ...row, spans } : row;
}

/**
 * The column of a phrase centred at `x`: the rule-bounded span containing it, else the label whose centre is
 * nearest (columns split at the midpoints between centres).
 */
export function columnAt(row: ColumnRow, x: number): string | null {
  for (const [label, [l, r]] of row.spans ?? []) if (x >= l && x <= r) return label;
  let bestLabel: string | null = null;
  let bestDist = Infinity;
  for (const [label, cx] of row.centers) {
    const d = Math.abs(cx - x);
    if (d < bestDist) {
      bestDist = d;
      bestLabel = label;
    }
  }
  return bestLabel;
}
