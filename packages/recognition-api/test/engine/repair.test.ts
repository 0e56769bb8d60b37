import { describe, expect, it } from 'vitest';
import { lineItem } from './fixtures.js';
import type { EngineWarning, RecognizedData } from '../../src/engine/engine.port.js';
import { flagTotalsOneDigitOff, lineHolds, REPAIRED_CONFIDENCE, repairLine, singleDigitDiff } from '../../src/engine/extract/repair.js';

const line = lineItem;

describe('digit repair from line arithmetic', () => {
  it('compares printed values digit by digit', () => {
    expect(singleDigitDiff('27715', '27775')).toBe(true);
    expect(singleDigitDiff('27715', '27776')).toBe(false);
    expect(singleDigitDiff('2771', '27715')).toBe(false);
  });

  it('repairs a single misread digit the arithmetic proves, and reports it', () => {
    const it1 = line({ amount_without_nds: 277.15 });
    const warnings: EngineWarning[] = [];
    const conf: Record<string, number> = {};
    repairLine(it1, 3, warnings, conf);
    expect(it1.amount_without_nds).toBe(277.75);
    expect(warnings).toEqual([{ field: 'items[3].amount_without_nds', message: expect.stringContaining('277.75') }]);
    expect(conf['items[3].amount_without_nds']).toBe(REPAIRED_CONFIDENCE);
  });

  it('repairs the VAT amount and the price', () => {
    const a = line({ nds_amount: 61.17 });
    const b = line({ price: 55.56 });
    repairLine(a, 0, [], {});
    repairLine(b, 0, [], {});
    expect(a.nds_amount).toBe(61.11);
    expect(b.price).toBe(55.55);
  });

  it('leaves a difference of more than one digit as read', () => {
    const it1 = line({ amount_without_nds: 288.15 });
    const warnings: EngineWarning[] = [];
    repairLine(it1, 0, warnings, {});
    expect(it1.amount_without_nds).toBe(288.15);
    expect(warnings).toEqual([]);
  });

  it('takes a price rounded from a VAT-inclusive price as consistent (quantity × 0,005 RUB)', () => {
    // 48 × 312,50 incl. 22 % VAT = 15 000,00; VAT 2 704,92; net 12 295,08; price 256,15; 48 × 256,15 = 12 295,20.
    const it1 = line({ quantity: 48, price: 256.15, amount_without_nds: 12295.08, nds_amount: 2704.92, amount_with_nds: 15000 });
    expect(lineHolds(it1)).toBe(true);
    const warnings: EngineWarning[] = [];
    repairLine(it1, 0, warnings, {});
    expect(warnings).toEqual([]);
  });

  it('repairs a value whose decimal comma a photo lost, when the arithmetic proves it', () => {
    // 25,800 kg × 53,35 = 1 376,43; the photo read "25 800".
    const it1 = line({ quantity: 25800, price: 53.35, amount_without_nds: 1376.43, nds_rate: 10, nds_amount: 137.64, amount_with_nds: 1514.07 });
    const warnings: EngineWarning[] = [];
    repairLine(it1, 0, warnings, {});
    expect(it1.quantity).toBe(25.8);
    expect(warnings[0].message).toContain('decimal separator lost');
    // A whole quantity printed with three decimals ("5,000") and read 5000, while the amounts say 5.
    const it2 = line({ quantity: 5000 });
    repairLine(it2, 0, [], {});
    expect(it2.quantity).toBe(5);
    // … but 50 read for 5 is an extra digit, not a lost comma; and 5 000 printed as such keeps its amounts.
    const it3 = line({ quantity: 50 });
    repairLine(it3, 0, [], {});
    expect(it3.quantity).toBe(50);
    const it4 = line({ quantity: 5000, amount_without_nds: 277750, nds_amount: 61105, amount_with_nds: 338855 });
    repairLine(it4, 0, [], {});
    expect(it4.quantity).toBe(5000);
  });

  it('repairs two misread values of one line when a third equation proves them (photo)', () => {
    // 40,000 × 10 666,00 = 426 640,00; VAT 22 % 93 860,80; gross 520 500,80. The photo lost the quantity's comma
    // and read one digit of the VAT wrong; price and net prove the quantity, net and rate the VAT, the gross both.
    const it1 = line({ quantity: 40000, price: 10666, amount_without_nds: 426640, nds_amount: 93868.8, amount_with_nds: 520500.8 });
    const warnings: EngineWarning[] = [];
    const conf: Record<string, number> = {};
    repairLine(it1, 2, warnings, conf);
    expect([it1.quantity, it1.nds_amount]).toEqual([40, 93860.8]);
    expect(warnings.map((w) => w.field)).toEqual(['items[2].quantity', 'items[2].nds_amount']);
    expect(warnings[0].message).toContain('decimal separator lost');
    expect(conf['items[2].nds_amount']).toBe(REPAIRED_CONFIDENCE);
  });

  it('computes an amount that was not read from the rest of the line, and says so', () => {
    const it1 = line({ amount_with_nds: null, nds_amount: null });
    const warnings: EngineWarning[] = [];
    repairLine(it1, 0, warnings, {});
    expect([it1.nds_amount, it1.amount_with_nds]).toEqual([61.11, 338.86]);
    expect(warnings[0].message).toMatch(/^not read, the line arithmetic gives 61.11/);
    // Without a VAT rate two unread amounts leave nothing to check them by: left empty for validation to report.
    const it2 = line({ nds_rate: null, amount_with_nds: null, nds_amount: null });
    repairLine(it2, 0, [], {});
    expect(it2.amount_with_nds).toBeNull();
  });

  it('puts back the separators a photo lost, from the cells as read, when the whole line then holds', () => {
    // 350,125 × 140,88 = 49 325,61; VAT 20 % 9 865,12; gross 59 190,73 — read "350 125", "140 88", "4932561", the
    // gross unreadable ("5% 190 73").
    const it1 = line({ quantity: 350125, price: null, amount_without_nds: 4932561, nds_rate: 20, nds_amount: 9865.12, amount_with_nds: null });
    const readings = { quantity: '350 125', price: '140 88', amount_without_nds: '4932561', nds_amount: '9 865 12', amount_with_nds: '5% 190 73' };
    const warnings: EngineWarning[] = [];
    repairLine(it1, 0, warnings, {}, readings);
    expect([it1.quantity, it1.price, it1.amount_without_nds, it1.nds_amount, it1.amount_with_nds]).toEqual([
      350.125, 140.88, 49325.61, 9865.12, 59190.73,
    ]);
    expect(warnings.find((w) => w.field === 'items[0].price')?.message).toBe(
      'read "140 88", the line arithmetic gives 140.88 (decimal separator lost); corrected',
    );
    expect(warnings.find((w) => w.field === 'items[0].amount_with_nds')?.message).toContain('(not read)');
    // Without the cells' texts the same line has too many unknowns: left as read.
    const it2 = line({ quantity: 350125, price: null, amount_without_nds: 4932561, nds_rate: 20, nds_amount: 9865.12, amount_with_nds: null });
    repairLine(it2, 0, [], {});
    expect(it2.price).toBeNull();
  });

  it('changes nothing when two repairs of the same size disagree, or when more than two values are off', () => {
    // Quantity and price both unread: quantity × price = net has many solutions.
    const it1 = line({ quantity: null, price: null });
    repairLine(it1, 0, [], {});
    expect([it1.quantity, it1.price]).toEqual([null, null]);
    const it2 = line({ quantity: 6, price: 55.56, amount_with_nds: 338.87 });
    const warnings: EngineWarning[] = [];
    repairLine(it2, 0, warnings, {});
    expect(it2).toEqual(line({ quantity: 6, price: 55.56, amount_with_nds: 338.87 }));
    expect(warnings).toEqual([]);
  });

  it('leaves a consistent line alone', () => {
    const it1 = line();
    const warnings: EngineWarning[] = [];
    repairLine(it1, 0, warnings, {});
    expect(it1).toEqual(line());
    expect(warnings).toEqual([]);
  });

  it('keeps a printed total one digit off the sum of the lines and warns: a lost line looks the same', () => {
    // Lines of 277,75 / 300,00 / 277,75 printed, total 855,50; the 300,00 line was not read, so the lines found
    // sum to 555,50: one digit from the printed total. "Correcting" it would hide the lost line.
    const data: RecognizedData = {
      document: { number: '1', date: '01.02.2026' },
      seller: { name: null, inn: null, kpp: null },
      buyer: { name: null, inn: null, kpp: null },
      items: [line(), line({ number: 3 })],
      totals: { amount_without_nds: 855.5, nds_amount: 188.22, amount_with_nds: 1043.72 },
    };
    const warnings: EngineWarning[] = [];
    flagTotalsOneDigitOff(data, warnings);
    expect(data.totals).toEqual({ amount_without_nds: 855.5, nds_amount: 188.22, amount_with_nds: 1043.72 });
    expect(warnings.map((w) => w.field)).toEqual(['totals.amount_without_nds']);
    expect(warnings[0].message).toContain('kept as printed');
  });
});
