import { describe, expect, it } from 'vitest';
import { lineItem } from './fixtures.js';
import type { EngineWarning, LineItem, RecognizedData } from '../../src/engine/engine.port.js';
import {
  CONTRADICTED_CONFIDENCE,
  crossCheckConfidence,
  implausibleDocumentNumber,
  repairLineNumbers,
  repairUnitCodes,
  UNCHECKED_CONFIDENCE,
} from '../../src/engine/extract/cross-check.js';
import { REPAIRED_CONFIDENCE } from '../../src/engine/extract/repair.js';

const line = lineItem;

const doc = (items: LineItem[], over: Partial<RecognizedData> = {}): RecognizedData => ({
  document: { number: '12', date: '01.02.2026' },
  // 7707083893: a valid INN (check digit 3).
  seller: { name: 'ООО «Ромашка»', inn: '7707083893', kpp: '770701001', address: null },
  buyer: { name: 'АО «Лютик»', inn: '7707083893', kpp: '770701001', address: null },
  items,
  totals: {
    amount_without_nds: items.reduce((a, it) => a + (it.amount_without_nds ?? 0), 0),
    nds_amount: items.reduce((a, it) => a + (it.nds_amount ?? 0), 0),
    amount_with_nds: items.reduce((a, it) => a + (it.amount_with_nds ?? 0), 0),
  },
  ...over,
});

/** Every field of `d` read with confidence 0.97 (Tesseract sure of everything). */
function sure(d: RecognizedData): Record<string, number> {
  const conf: Record<string, number> = {};
  for (const p of ['document.number', 'document.date', 'seller.name', 'seller.inn', 'seller.kpp', 'buyer.name', 'buyer.inn', 'buyer.kpp'])
    conf[p] = 0.97;
  for (const t of ['amount_without_nds', 'nds_amount', 'amount_with_nds']) conf[`totals.${t}`] = 0.97;
  d.items.forEach((_, i) => {
    for (const f of [
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
    ])
      conf[`items[${i}].${f}`] = 0.97;
  });
  return conf;
}

describe('unit code repair from the unit name (OKEI)', () => {
  it('replaces a code misread in one digit by the only code of the name, with a warning', () => {
    const d = doc([line({ unit: { code: '795', name: 'шт' } }), line({ number: 2, unit: { code: '539', name: 'компл' } })]);
    const warnings: EngineWarning[] = [];
    const conf = sure(d);
    repairUnitCodes(d, warnings, conf);
    expect(d.items.map((it) => it.unit.code)).toEqual(['796', '839']);
    expect(warnings.map((w) => w.field)).toEqual(['items[0].unit.code', 'items[1].unit.code']);
    expect(conf['items[0].unit.code']).toBe(REPAIRED_CONFIDENCE);
  });

  it('replaces a unit name that is no OKEI name by the short name of its known code', () => {
    const d = doc([
      line({ unit: { code: '166', name: 'к' } }),
      line({ unit: { code: '796', name: 'ил' } }),
      line({ unit: { code: '778', name: 'уп' } }),
    ]);
    const warnings: EngineWarning[] = [];
    repairUnitCodes(d, warnings, {});
    expect(d.items.map((it) => it.unit.name)).toEqual(['кг', 'шт', 'уп']);
    expect(warnings.map((w) => w.field)).toEqual(['items[0].unit.name', 'items[1].unit.name']);
  });

  it('keeps full unit names 1C prints and unit words not on the short list', () => {
    const d = doc([
      line({ unit: { code: '796', name: 'штука' } }),
      line({ unit: { code: '778', name: 'упаковка' } }),
      line({ unit: { code: '796', name: 'бухта' } }),
      line({ unit: { code: '166', name: 'к1' } }),
    ]);
    const warnings: EngineWarning[] = [];
    repairUnitCodes(d, warnings, {});
    expect(d.items.map((it) => it.unit.name)).toEqual(['штука', 'упаковка', 'бухта', 'кг']);
    expect(warnings.map((w) => w.field)).toEqual(['items[3].unit.name']);
  });

  it("leaves another unit's code more than one digit away, an ambiguous name and a matching pair alone", () => {
    const d = doc([line({ unit: { code: '006', name: 'шт' } }), line({ unit: { code: '641', name: 'ед' } }), line()]);
    const warnings: EngineWarning[] = [];
    repairUnitCodes(d, warnings, {});
    expect(d.items.map((it) => it.unit.code)).toEqual(['006', '641', '796']);
    expect(warnings).toEqual([]);
  });

  it('replaces a reading that is no OKEI code at all (a photo\'s "7." read as 007) by the code of the name', () => {
    const d = doc([line({ unit: { code: '007', name: 'шт' } }), line({ unit: { code: '296', name: 'кг' } })]);
    const warnings: EngineWarning[] = [];
    repairUnitCodes(d, warnings, {});
    expect(d.items.map((it) => it.unit.code)).toEqual(['796', '166']);
    expect(warnings[1].message).toBe('read 296, the unit name «кг» gives OKEI 166 (no OKEI code); corrected');
  });

  it('takes the code of a unit name one letter off when the code read confirms it', () => {
    const d = doc([
      line({ unit: { code: '735', name: 'руп' } }),
      line({ unit: { code: '007', name: 'ши' } }),
      // Not confirmed: the code is another unit's and more than one digit away, or the read name is one letter.
      line({ unit: { code: '006', name: 'шп' } }),
      line({ unit: { code: '007', name: 'ш!' } }),
    ]);
    const warnings: EngineWarning[] = [];
    repairUnitCodes(d, warnings, {});
    expect(d.items.map((it) => it.unit.code)).toEqual(['736', '796', '006', '007']);
    // (The two-letter fragment beside a known code takes that code's name, as before.)
    expect(warnings.map((w) => w.field)).toEqual(['items[0].unit.code', 'items[1].unit.code', 'items[2].unit.name']);
  });
});

describe('cross-checked field confidence', () => {
  it('keeps the confidence of a consistent document', () => {
    const d = doc([line(), line({ number: 2 })]);
    const conf = sure(d);
    crossCheckConfidence(d, conf);
    expect(Object.values(conf).every((c) => c === 0.97)).toBe(true);
  });

  it('caps every amount of a line whose arithmetic fails, and totals that are not the sum of the lines', () => {
    const d = doc([line({ quantity: 6 }), line({ number: 2 })]);
    d.totals.amount_with_nds = 777.77;
    const conf = sure(d);
    crossCheckConfidence(d, conf);
    for (const f of ['quantity', 'price', 'amount_without_nds', 'nds_amount', 'amount_with_nds'])
      expect(conf[`items[0].${f}`]).toBe(CONTRADICTED_CONFIDENCE);
    expect(conf['items[1].quantity']).toBe(0.97);
    expect(conf['totals.amount_with_nds']).toBe(CONTRADICTED_CONFIDENCE);
  });

  it('caps an out-of-sequence line number, a unit pair OKEI does not know, a bad INN check digit', () => {
    const d = doc([line({ number: 3, unit: { code: '796', name: '5' } })], {
      seller: { name: 'ООО «Ромашка»', inn: '7707083894', kpp: '770701001', address: null },
    });
    const conf = sure(d);
    crossCheckConfidence(d, conf);
    expect(conf['items[0].number']).toBe(CONTRADICTED_CONFIDENCE);
    expect(conf['items[0].unit.code']).toBe(CONTRADICTED_CONFIDENCE);
    expect(conf['items[0].unit.name']).toBe(CONTRADICTED_CONFIDENCE);
    expect(conf['seller.inn']).toBe(CONTRADICTED_CONFIDENCE);
    expect(conf['buyer.inn']).toBe(0.97);
  });

  it('caps a document number without a digit or with a lower-case letter, keeps numbers as systems print them', () => {
    for (const bad of ['Т', 'от', 'вЛ-004512', 'Кр-1190']) {
      const d = doc([line()]);
      d.document.number = bad;
      const conf = sure(d);
      crossCheckConfidence(d, conf);
      expect(conf['document.number'], bad).toBe(CONTRADICTED_CONFIDENCE);
    }
    for (const ok of ['418', 'КМ-002231', 'Б-0093', '77/12', '00041127', 'ЭК-12/2026']) {
      expect(implausibleDocumentNumber(ok), ok).toBe(false);
      const d = doc([line()]);
      d.document.number = ok;
      const conf = sure(d);
      crossCheckConfidence(d, conf);
      expect(conf['document.number'], ok).toBe(0.97);
    }
  });

  it('gives empty fields 0 and unchecked amounts at most the unchecked ceiling', () => {
    const d = doc([line({ price: null })]);
    const conf = sure(d);
    crossCheckConfidence(d, conf);
    expect(conf['items[0].price']).toBe(0);
    expect(conf['items[0].quantity']).toBe(UNCHECKED_CONFIDENCE);
  });
});

describe('line numbers misread where the lines around prove the sequence (repairLineNumbers)', () => {
  const run = (numbers: number[]) => {
    const items = numbers.map((number) => ({ number }));
    const warnings: { field: string; message: string }[] = [];
    repairLineNumbers(items, warnings);
    return { numbers: items.map((it) => it.number), warnings };
  };

  it('a number between two that are two apart becomes the one between them, with a warning', () => {
    const r = run([9, 10, 1, 12]);
    expect(r.numbers).toEqual([9, 10, 11, 12]);
    expect(run([1, 2, 3, 4]).warnings).toEqual([]);
    const mid = run([1, 2, 8, 4, 5]);
    expect(mid.numbers).toEqual([1, 2, 3, 4, 5]);
    expect(mid.warnings).toEqual([{ field: 'items[2].number', message: 'line number read as 8, the lines around give 3; corrected' }]);
  });

  it('the first line before a 2 and the last after an unbroken sequence', () => {
    expect(run([7, 2, 3]).numbers).toEqual([1, 2, 3]);
    expect(run([1, 2, 3, 8]).numbers).toEqual([1, 2, 3, 4]);
  });

  it('leaves gaps the neighbours do not close, and a continuation page that starts later', () => {
    // Lines 11–13 may be missing: nothing proves which number the odd one had.
    expect(run([9, 10, 1, 14]).numbers).toEqual([9, 10, 1, 14]);
    expect(run([32, 33, 34]).numbers).toEqual([32, 33, 34]);
    expect(run([32, 33, 7]).numbers).toEqual([32, 33, 7]);
    // Two misread in a row: neither is proven.
    expect(run([1, 2, 9, 9, 5]).numbers).toEqual([1, 2, 9, 9, 5]);
  });
});
