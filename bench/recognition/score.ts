import type { RecognizedData } from '@app/recognition-api';

/** Header key fields scored by the benchmark (address is reported on its own: long free text). */
export const HEADER_FIELDS = [
  'document.number',
  'document.date',
  'seller.name',
  'seller.inn',
  'seller.kpp',
  'buyer.name',
  'buyer.inn',
  'buyer.kpp',
  'totals.amount_without_nds',
  'totals.nds_amount',
  'totals.amount_with_nds',
] as const;
/** Item cells scored per truth line. */
export const CELL_FIELDS = [
  'number',
  'name',
  'unit.code',
  'unit.name',
  'quantity',
  'price',
  'amount_without_nds',
  'nds_rate',
  'nds_amount',
  'amount_with_nds',
] as const;

const get = (obj: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o == null ? undefined : (o as Record<string, unknown>)[k]), obj);

/** Text compared without quote style and spacing differences («» vs ""), numbers exactly. */
export function same(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) =>
    typeof v === 'string'
      ? v
          .replace(/[«»“”„"]/g, '"')
          .replace(/\s+/g, ' ')
          .trim()
      : (v ?? null);
  return norm(a) === norm(b);
}

/** One scored field: whether it is right and the engine's confidence in it. */
export interface FieldScore {
  kind: 'header' | 'cell' | 'address';
  path: string;
  ok: boolean;
  conf: number;
  /** For a wrong field: what was read and what was printed (for the failure dump). */
  got?: unknown;
  want?: unknown;
}

/** Scores a recognition against the truth, field by field (items aligned by position). */
export function scoreDocument(got: RecognizedData, truth: RecognizedData, conf: Record<string, number>): FieldScore[] {
  const out: FieldScore[] = [];
  for (const f of HEADER_FIELDS) out.push({ kind: 'header', path: f, ok: same(get(got, f), get(truth, f)), conf: conf[f] ?? 0 });
  for (const r of ['seller', 'buyer'])
    out.push({
      kind: 'address',
      path: `${r}.address`,
      ok: same(get(got, `${r}.address`), get(truth, `${r}.address`)),
      conf: conf[`${r}.address`] ?? 0,
    });
  truth.items.forEach((ti, i) => {
    for (const f of CELL_FIELDS) {
      const g = got.items[i];
      out.push({ kind: 'cell', path: `items[${i}].${f}`, ok: g != null && same(get(g, f), get(ti, f)), conf: conf[`items[${i}].${f}`] ?? 0 });
    }
  });
  // Extra lines the engine invented count as wrong cells.
  for (let i = truth.items.length; i < got.items.length; i++)
    for (const f of CELL_FIELDS) out.push({ kind: 'cell', path: `items[${i}].${f}`, ok: false, conf: 0 });
  // A wrong field carries both values, so a dump shows the class of error.
  for (const f of out)
    if (!f.ok) {
      const m = /^items\[(\d+)\]\.(.+)$/.exec(f.path);
      f.got = m ? get(got.items[Number(m[1])], m[2]) : get(got, f.path);
      f.want = m ? get(truth.items[Number(m[1])], m[2]) : get(truth, f.path);
    }
  return out;
}

/** Percentile (0..100) of a list, nearest rank. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/**
 * Failures grouped by field (item cells by column, `items[*].name`), most frequent first: "path wrong/scored
 * (n sure)", where "sure" counts the wrong ones with confidence ≥ 0.9 — the class of error to fix next.
 */
export function failureBreakdown(scores: FieldScore[]): string {
  const by = new Map<string, { wrong: number; all: number; sure: number }>();
  for (const f of scores) {
    const key = f.path.replace(/^items\[\d+\]/, 'items[*]');
    const e = by.get(key) ?? { wrong: 0, all: 0, sure: 0 };
    e.all++;
    if (!f.ok) {
      e.wrong++;
      if (f.conf >= 0.9) e.sure++;
    }
    by.set(key, e);
  }
  const rows = [...by].filter(([, e]) => e.wrong > 0).sort((a, b) => b[1].wrong - a[1].wrong);
  return rows.length === 0 ? 'none' : rows.map(([k, e]) => `${k} ${e.wrong}/${e.all}${e.sure ? ` (${e.sure} sure)` : ''}`).join(', ');
}
