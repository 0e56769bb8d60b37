import { makeParty } from './companies.js';
import { type ItemStyle, makeItem, rub } from './items.js';
import type { Rng } from './random.js';
import type { DocType, TruthData } from './truth.types.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** A document number as 1C and other systems print them: plain digits, sometimes with a Cyrillic prefix. */
function docNumber(rng: Rng): string {
  const n = String(rng.int(1, 9999));
  return rng.chance(0.3) ? `${rng.pick(['УТ', 'ЦБ', 'РН'])}-${n.padStart(5, '0')}` : n;
}

/**
 * Ground truth of one document: number, date (2025 → standard VAT 20 %, 2026 → 22 %), seller and buyer,
 * `lines` items (default 1–25) and totals that are exact sums of the lines. About 6 % of documents are entirely
 * "без НДС" (a seller on the simplified tax system), then the VAT total is null.
 */
export function makeTruth(rng: Rng, _type: DocType, lines?: number, latinNames = false, extra: ItemStyle = {}): TruthData {
  const year = rng.chance(0.5) ? 2025 : 2026;
  const date = `${pad(rng.int(1, 28))}.${pad(rng.int(1, 12))}.${year}`;
  const exempt = rng.chance(0.06);
  const count = lines ?? (rng.chance(0.2) ? rng.int(12, 25) : rng.int(1, 11));
  const items = Array.from({ length: count }, (_, i) => makeItem(rng, i + 1, { standard: year === 2025 ? 20 : 22 }, exempt, latinNames, extra));
  const sum = (f: (it: (typeof items)[number]) => number | null) => rub(items.reduce((acc, it) => acc + (f(it) ?? 0), 0));
  return {
    document: { number: docNumber(rng), date },
    seller: makeParty(rng),
    buyer: makeParty(rng),
    items,
    totals: {
      amount_without_nds: sum((it) => it.amount_without_nds),
      nds_amount: exempt ? null : sum((it) => it.nds_amount),
      amount_with_nds: sum((it) => it.amount_with_nds),
    },
  };
}
