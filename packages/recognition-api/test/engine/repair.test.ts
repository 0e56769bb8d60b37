import { describe, expect, it } from 'vitest';
import { lineItem } from './fixtures.js';
import type { EngineWarning, RecognizedData } from '../../src/engine/engine.port.js';
import { REPAIRED_CONFIDENCE, repairLine, repairTotals, singleDigitDiff } from '../../src/engine/extract/repair.js';

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

  it('leaves a consistent line alone', () => {
    const it1 = line();
    const warnings: EngineWarning[] = [];
    repairLine(it1, 0, warnings, {});
    expect(it1).toEqual(line());
    expect(warnings).toEqual([]);
  });

  it('repairs a total one digit off the sum of consistent lines', () => {
    const data: RecognizedData = {
      document: { number: '1', date: '01.02.2026' },
      seller: { name: null, inn: null, kpp: null },
      buyer: { name: null, inn: null, kpp: null },
      items: [line(), line({ number: 2 })],
      totals: { amount_without_nds: 555.5, nds_amount: 122.22, amount_with_nds: 677.72 },
    };
    const warnings: EngineWarning[] = [];
    repairTotals(data, warnings, {});
    expect(data.totals.amount_without_nds).toBe(555.5);
    expect(data.totals.amount_with_nds).toBe(677.72);
    data.totals.amount_with_nds = 677.12;
    repairTotals(data, warnings, {});
    expect(data.totals.amount_with_nds).toBe(677.72);
    expect(warnings.map((w) => w.field)).toEqual(['totals.amount_with_nds']);
  });
});
