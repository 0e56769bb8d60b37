import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { readFormalizedUpd, writeFormalizedUpd } from '../../src/formalized/index.js';
import { ROUND_TRIP_CASES as CASES, truth, withZeroRateLine, WRITE_OPTIONS } from './helpers.js';

// Without a schema: the same documents are checked against the official FNS XSD in official-schema.xsd.test.ts.

describe('docgen data → formalized XML → read back', () => {
  for (const c of CASES) {
    it(`seed ${c.seed} ${c.type} (${c.covers})`, () => {
      const data = truth(c.seed, c.type);
      const { xml } = writeFormalizedUpd(data, c.type, WRITE_OPTIONS);
      const back = readFormalizedUpd(xml);
      expect(back.documentType).toBe(c.type);
      expect(back.function).toBe(c.type === 'upd' ? 'СЧФДОП' : 'СЧФ');
      expect(back.data).toEqual(data);
    });
  }

  it('the cases cover the rates and party kinds they claim', () => {
    const all = CASES.map((c) => truth(c.seed, c.type));
    const rates = new Set(all.flatMap((t) => t.items.map((i) => (i.nds_exempt ? 'без НДС' : i.nds_rate))));
    expect(rates).toEqual(new Set([20, 22, 10, 'без НДС']));
    const soleTraders = all.flatMap((t) => [t.seller, t.buyer]).filter((p) => p.kpp === null);
    expect(soleTraders.length).toBeGreaterThan(0);
    for (const p of soleTraders) expect(p.inn).toMatch(/^\d{12}$/);
  });

  it('a 0 % line is written as "0%" with a VAT amount of 0.00 and read back', () => {
    const data = withZeroRateLine(truth(8, 'upd'), 1);
    const { xml } = writeFormalizedUpd(data, 'upd', WRITE_OPTIONS);
    expect(iconv.decode(xml, 'win1251')).toMatch(/<СведТов НомСтр="2"[^>]* НалСт="0%"[^>]*>[\s\S]*?<СумНал>\s*<СумНал>0\.00<\/СумНал>/);
    expect(readFormalizedUpd(xml).data).toEqual(data);
  });

  it('a 22 % line (2026) is written as "22%" and reads back', () => {
    const data = truth(1, 'upd');
    expect(data.items.some((i) => i.nds_rate === 22)).toBe(true);
    const { xml } = writeFormalizedUpd(data, 'upd', WRITE_OPTIONS);
    expect(iconv.decode(xml, 'win1251')).toContain('НалСт="22%"');
    expect(readFormalizedUpd(xml).data).toEqual(data);
  });
});
