import { describe, expect, it } from 'vitest';
import { generateTruth } from '@app/docgen';
import { makeData, makeItem } from '../../fixtures.js';
import { validateRecognizedData } from '../../../src/engine/validate/validate.js';
import { innChecksumOk, kppFormatOk } from '../../../src/engine/validate/tax-ids.js';
import { parseDocumentDate, vatRatesInForce } from '../../../src/engine/validate/dates-vat.js';
import { checkUnit } from '../../../src/engine/validate/okei.js';

const fields = (data: ReturnType<typeof makeData>) => validateRecognizedData(data).warnings.map((w) => w.field);

describe('validateRecognizedData', () => {
  it('a consistent document has no warnings', () => {
    expect(validateRecognizedData(makeData())).toEqual({ warnings: [], emptyCritical: [], totalsMismatch: false });
  });

  it('rule 1: net + VAT must equal gross per line (0.01 RUB tolerance)', () => {
    expect(
      fields(
        makeData({ items: [makeItem({ amount_with_nds: 240.01 })], totals: { amount_without_nds: 200, nds_amount: 40, amount_with_nds: 240.01 } }),
      ),
    ).toEqual([]);
    expect(
      fields(
        makeData({ items: [makeItem({ amount_with_nds: 240.02 })], totals: { amount_without_nds: 200, nds_amount: 40, amount_with_nds: 240.02 } }),
      ),
    ).toEqual(['items[0].amount_with_nds']);
  });

  it('rule 1: quantity × price must equal the net amount', () => {
    const data = makeData({ items: [makeItem({ quantity: 3 })], totals: { amount_without_nds: 200, nds_amount: 40, amount_with_nds: 240 } });
    expect(fields(data)).toEqual(['items[0].amount_without_nds']);
  });

  it('rule 1: a price printed rounded from a VAT-inclusive price is no error; a wrong amount still is', () => {
    // 1C, prices incl. 20 % VAT: 150 × 1 250,00 = 187 500,00 gross; VAT 31 250,00; net 156 250,00 → price without
    // VAT 1 041,67 (rounded), and 150 × 1 041,67 = 156 250,50: 50 kopecks off, within 150 × 0,005.
    const item = makeItem({ quantity: 150, price: 1041.67, amount_without_nds: 156250, nds_amount: 31250, amount_with_nds: 187500 });
    const totals = { amount_without_nds: 156250, nds_amount: 31250, amount_with_nds: 187500 };
    expect(fields(makeData({ items: [item], totals }))).toEqual([]);
    // Ten roubles off is more than rounding explains: 156 260,00 / 150 = 1 041,73, not the printed price.
    const wrong = makeItem({ quantity: 150, price: 1041.67, amount_without_nds: 156260, nds_amount: 31252, amount_with_nds: 187512 });
    const wrongTotals = { amount_without_nds: 156260, nds_amount: 31252, amount_with_nds: 187512 };
    expect(fields(makeData({ items: [wrong], totals: wrongTotals }))).toEqual(['items[0].amount_without_nds']);
  });

  it('an amount the reader lost is a warning, not a line that silently holds', () => {
    const data = makeData({
      items: [makeItem({ amount_without_nds: null })],
      totals: { amount_without_nds: 200, nds_amount: 40, amount_with_nds: 240 },
    });
    expect(fields(data)).toEqual(['items[0].amount_without_nds']);
    // "без НДС": no VAT amount is expected.
    const exempt = makeItem({ nds_rate: null, nds_exempt: true, nds_amount: null, amount_with_nds: 200 });
    expect(fields(makeData({ items: [exempt], totals: { amount_without_nds: 200, nds_amount: null, amount_with_nds: 200 } }))).toEqual([]);
  });

  it('docgen documents with VAT-inclusive prices (tuning seeds 20100–20129) validate without a warning', () => {
    for (let seed = 20100; seed < 20130; seed++) {
      const { truth } = generateTruth({ seed, type: 'upd', tier: 'scan', lines: 12, pricesIncludeVat: true });
      const data = { ...truth, items: truth.items.map((it) => ({ ...it, product_code: it.product_code ?? undefined })) };
      expect(validateRecognizedData(data as Parameters<typeof validateRecognizedData>[0]).warnings, `seed ${seed}`).toEqual([]);
    }
  });

  it('a total the reader lost (a stamp over it) is reported; no VAT total is expected on a "без НДС" document', () => {
    expect(fields(makeData({ totals: { amount_without_nds: null, nds_amount: null, amount_with_nds: 359.99 } }))).toEqual([
      'totals.amount_without_nds',
      'totals.nds_amount',
    ]);
    const exempt = makeItem({ nds_rate: null, nds_exempt: true, nds_amount: null, amount_with_nds: 200 });
    expect(fields(makeData({ items: [exempt], totals: { amount_without_nds: 200, nds_amount: null, amount_with_nds: 200 } }))).toEqual([]);
  });

  it('rule 2: totals must equal the sum of lines, and a mismatch is flagged', () => {
    const r = validateRecognizedData(makeData({ totals: { amount_without_nds: 299.99, nds_amount: 60, amount_with_nds: 400 } }));
    expect(r.warnings.map((w) => w.field)).toEqual(['totals.amount_with_nds']);
    expect(r.totalsMismatch).toBe(true);
  });

  it('rule 2: tolerance is 0.01 RUB per line', () => {
    // two lines → 0.02 allowed
    expect(validateRecognizedData(makeData({ totals: { amount_without_nds: 299.99, nds_amount: 60, amount_with_nds: 360.01 } })).totalsMismatch).toBe(
      false,
    );
    expect(validateRecognizedData(makeData({ totals: { amount_without_nds: 299.99, nds_amount: 60, amount_with_nds: 360.02 } })).totalsMismatch).toBe(
      true,
    );
  });

  it('rule 3: INN must have 10 or 12 digits; empty INN is a critical field', () => {
    expect(fields(makeData({ seller: { name: 'x', inn: '12345', kpp: null } }))).toEqual(['seller.inn']);
    const r = validateRecognizedData(makeData({ buyer: { name: 'x', inn: null, kpp: null } }));
    expect(r.warnings.map((w) => w.field)).toEqual(['buyer.inn']);
    expect(r.emptyCritical).toEqual(['buyer.inn']);
  });

  it('INN check digits (beyond the spec)', () => {
    expect(innChecksumOk('7707083893')).toBe(true);
    expect(innChecksumOk('7707083894')).toBe(false);
    expect(innChecksumOk('500100732259')).toBe(true);
    expect(innChecksumOk('500100732258')).toBe(false);
    expect(fields(makeData({ seller: { name: 'x', inn: '7707083894', kpp: null } }))).toEqual(['seller.inn']);
  });

  it('KPP format NNNNXXNNN (beyond the spec)', () => {
    expect(kppFormatOk('7707AB001')).toBe(true);
    expect(kppFormatOk('77070100')).toBe(false);
    expect(fields(makeData({ seller: { name: 'x', inn: '7707083893', kpp: '7707-01001' } }))).toEqual(['seller.kpp']);
  });

  it('rule 4: date must be DD.MM.YYYY and a real day', () => {
    expect(parseDocumentDate('29.02.2024')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseDocumentDate('29.02.2025')).toBeNull();
    expect(fields(makeData({ document: { number: '1', date: '2025-11-15' } }))).toEqual(['document.date']);
    expect(fields(makeData({ document: { number: '1', date: null } }))).toEqual(['document.date']);
  });

  it('rule 5: VAT rates as in force at the document date (22 % from 2026, 20 % before)', () => {
    expect(vatRatesInForce(parseDocumentDate('31.12.2025'))).toEqual([0, 5, 7, 10, 20]);
    expect(vatRatesInForce(parseDocumentDate('01.01.2026'))).toEqual([0, 5, 7, 10, 22]);
    expect(vatRatesInForce(parseDocumentDate('01.06.2024'))).toEqual([0, 10, 20]);
    const in2026 = makeData({ document: { number: '1', date: '10.01.2026' } });
    expect(fields(in2026)).toEqual(['items[0].nds_rate', 'items[1].nds_rate']);
    expect(
      fields(makeData({ items: [makeItem({ nds_rate: 18 })], totals: { amount_without_nds: 200, nds_amount: 40, amount_with_nds: 240 } })),
    ).toEqual(['items[0].nds_rate']);
  });

  it('"без НДС" lines are valid without a rate; a missing rate is a warning', () => {
    const exempt = makeItem({ nds_rate: null, nds_exempt: true, nds_amount: null, amount_with_nds: 200 });
    expect(fields(makeData({ items: [exempt], totals: { amount_without_nds: 200, nds_amount: 0, amount_with_nds: 200 } }))).toEqual([]);
    const missing = makeItem({ nds_rate: null });
    expect(fields(makeData({ items: [missing], totals: { amount_without_nds: 200, nds_amount: 40, amount_with_nds: 240 } }))).toEqual([
      'items[0].nds_rate',
    ]);
  });

  it('VAT amount must match the rate (beyond the spec)', () => {
    const item = makeItem({ nds_amount: 30, amount_with_nds: 230 });
    expect(fields(makeData({ items: [item], totals: { amount_without_nds: 200, nds_amount: 30, amount_with_nds: 230 } }))).toEqual([
      'items[0].nds_amount',
    ]);
  });

  it('OKEI unit codes and names (beyond the spec)', () => {
    expect(checkUnit('018', 'пог. м')).toBe('ok');
    expect(checkUnit('055', 'м²')).toBe('ok');
    expect(checkUnit('999', 'шт')).toBe('unknown_code');
    expect(checkUnit('166', 'шт')).toBe('name_mismatch');
    expect(checkUnit('796', 'штука')).toBe('ok');
    expect(checkUnit('778', 'Упаковка')).toBe('ok');
    const items = [makeItem({ unit: { code: '166', name: 'шт' } })];
    expect(fields(makeData({ items, totals: { amount_without_nds: 200, nds_amount: 40, amount_with_nds: 240 } }))).toEqual(['items[0].unit.name']);
  });

  it('an empty page: every critical field empty, warnings name each field', () => {
    const r = validateRecognizedData({
      document: { number: null, date: null },
      seller: { name: null, inn: null, kpp: null },
      buyer: { name: null, inn: null, kpp: null },
      items: [],
      totals: { amount_without_nds: null, nds_amount: null, amount_with_nds: null },
    });
    expect(r.emptyCritical).toEqual(['seller.inn', 'buyer.inn', 'totals.amount_with_nds']);
    expect(r.warnings.map((w) => w.field)).toEqual(['seller.inn', 'buyer.inn', 'document.date', 'document.number', 'totals.amount_with_nds']);
  });
});
