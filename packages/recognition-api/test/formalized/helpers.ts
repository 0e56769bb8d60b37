import { generateTruth, type TruthData } from '@app/docgen';
import { FormalizedXmlError, type FormalizedDocument, type UpdWriteOptions } from '../../src/formalized/index.js';

/** Writer options with a fixed clock and id, as the caller (the export route) would pass them. */
export const WRITE_OPTIONS: UpdWriteOptions = {
  senderId: '2BM-7701234567-770101001-000000000000000000000',
  recipientId: '2BM-5260747137-526001001-000000000000000000000',
  signer: { surname: 'Иванов', firstName: 'Иван', patronymic: 'Иванович', position: 'Директор', authorityMethod: '1' },
  transfer: { operation: 'Товары переданы' },
  now: () => new Date('2026-03-15T07:20:30Z'),
  uuid: () => '5f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f',
};

/** Docgen ground truth of one document (no rendering). */
export function truth(seed: number, type: 'upd' | 'invoice', lines = 4): TruthData {
  return generateTruth({ seed, type, tier: 'scan', lines }).truth;
}

// Seeds picked from docgen so that together they cover: 2025 documents (20 % and 10 %), 2026 documents (22 % and
// 10 %), documents entirely "без НДС", a sole trader (12-digit INN, no KPP) on either side, UPD and invoice.
export const ROUND_TRIP_CASES = [
  { seed: 8, type: 'upd', covers: '20 % and 10 %, sole trader' },
  { seed: 13, type: 'upd', covers: 'без НДС, sole trader' },
  { seed: 24, type: 'invoice', covers: '20 % and 10 %, invoice' },
  { seed: 39, type: 'invoice', covers: 'без НДС invoice' },
  { seed: 93, type: 'upd', covers: '10 % and 20 %' },
  { seed: 3, type: 'upd', covers: '22 % and 10 %, sole trader' },
  { seed: 2, type: 'invoice', covers: '22 % and 10 %, invoice' },
] as const;

const rub = (n: number) => Math.round(n * 100) / 100;

/** Makes line `index` a 0 % line (VAT 0.00, with-VAT = without) and recomputes the totals. */
export function withZeroRateLine(t: TruthData, index: number): TruthData {
  const items = t.items.map((it, i) =>
    i === index ? { ...it, nds_rate: 0, nds_amount: 0, nds_exempt: undefined, amount_with_nds: it.amount_without_nds } : it,
  );
  const sum = (f: (it: (typeof items)[number]) => number | null) => rub(items.reduce((a, it) => a + (f(it) ?? 0), 0));
  return {
    ...t,
    items,
    totals: {
      amount_without_nds: sum((it) => it.amount_without_nds),
      nds_amount: sum((it) => it.nds_amount),
      amount_with_nds: sum((it) => it.amount_with_nds),
    },
  };
}

/** `code: message` of the FormalizedXmlError `read(bytes)` throws, or `accepted` when it reads the file. */
export function refusal(read: (bytes: Buffer) => FormalizedDocument, bytes: Buffer): string {
  try {
    read(bytes);
  } catch (e) {
    if (e instanceof FormalizedXmlError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'accepted';
}
