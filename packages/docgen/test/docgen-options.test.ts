import { describe, expect, it } from 'vitest';
import { DATE_STYLES, generateTruth, LATIN_PRODUCTS, partyLine, printDate, REAL_PRODUCTS } from '../src/index.js';

describe('docgen options for the hard tiers', () => {
  it('prints dates in every style; the truth stays DD.MM.YYYY', () => {
    expect(DATE_STYLES.map((s) => printDate('05.03.2026', s))).toEqual([
      '05.03.2026',
      '5 марта 2026 г.',
      '«05» марта 2026 г.',
      '"05" марта 2026',
      '5 март 2026',
    ]);
    const { truth, html } = generateTruth({ seed: 7, type: 'invoice', tier: 'scan', dateStyle: 'guillemets' });
    expect(truth.document.date).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(html).toContain(`от ${printDate(truth.document.date!, 'guillemets')}`);
  });

  it('partyStyle prints TORG-12 parties as 1C does, with phone and bank details; the truth is unchanged', () => {
    const short = generateTruth({ seed: 21, type: 'torg12', tier: 'scan' });
    const bank = generateTruth({ seed: 21, type: 'torg12', tier: 'scan', partyStyle: '1c-bank' });
    expect(bank.truth).toEqual(short.truth);
    const line = partyLine(bank.truth.seller, '1c-bank');
    expect(line.startsWith(`${bank.truth.seller.name}, ИНН ${bank.truth.seller.inn}`)).toBe(true);
    expect(line).toMatch(/, р\/с \d{20}, в банке .+, БИК 04\d{7}, к\/с 30101810\d{12}$/);
    expect(bank.html).toContain('БИК 04');
    expect(short.html).not.toContain('БИК');
    const pair = partyLine({ name: 'ООО «Ока»', inn: '6229000012', kpp: '622901001', address: '390000, г. Рязань' }, 'inn-kpp-pair');
    expect(pair).toContain('ИНН/КПП 6229000012/622901001, 390000, г. Рязань, тел.:');
  });

  it('realNames prints real-catalogue names; pricesIncludeVat rounds the printed price', () => {
    const real = generateTruth({ seed: 31, type: 'upd', tier: 'scan', lines: 25, realNames: true });
    expect(real.truth.items.every((i) => REAL_PRODUCTS.some((p) => p.name === i.name))).toBe(true);
    expect(real.html).toContain(real.truth.items[0].name.replace(/"/g, '&quot;').slice(0, 12));
    const plain = generateTruth({ seed: 31, type: 'upd', tier: 'scan', lines: 25 });
    expect(plain.truth.items.some((i) => REAL_PRODUCTS.some((p) => p.name === i.name))).toBe(false);
    let off = 0;
    for (let seed = 40; seed < 60; seed++) {
      const { truth } = generateTruth({ seed, type: 'torg12', tier: 'scan', lines: 10, pricesIncludeVat: true });
      for (const it of truth.items) {
        const k = (x: number) => Math.round(x * 100);
        expect(k(it.amount_without_nds!) + k(it.nds_amount ?? 0)).toBe(k(it.amount_with_nds!));
        // The printed price is the net amount ÷ quantity to kopecks, so quantity × price misses by ≤ quantity × 0,5 kopeck.
        expect(Math.abs(it.quantity! * it.price! * 100 - k(it.amount_without_nds!))).toBeLessThanOrEqual(it.quantity! * 0.5 + 1e-6);
        if (Math.abs(Math.round(it.quantity! * it.price! * 100) - k(it.amount_without_nds!)) > 1) off++;
      }
    }
    expect(off).toBeGreaterThan(0);
  });

  it("stamps put the seller's seal (with its INN) on the last sheet only; the truth is unchanged", () => {
    const plain = generateTruth({ seed: 33, type: 'upd', tier: 'scan', lines: 30 });
    const stamped = generateTruth({ seed: 33, type: 'upd', tier: 'scan', lines: 30, stamps: true });
    expect(stamped.truth).toEqual(plain.truth);
    const pages = stamped.html.split('<section class="page">').slice(1);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.at(-1)).toContain(`ИНН ${stamped.truth.seller.inn}`);
    expect(pages.slice(0, -1).join('')).not.toContain('<svg');
    expect(plain.html).not.toContain('<svg');
  });

  it('latinNames draws item names from the Latin catalogue; the default catalogue is unchanged', () => {
    const latin = generateTruth({ seed: 9, type: 'upd', tier: 'scan', lines: 20, latinNames: true }).truth.items.map((i) => i.name);
    expect(latin.some((n) => LATIN_PRODUCTS.some((p) => p.name === n))).toBe(true);
    const plain = generateTruth({ seed: 9, type: 'upd', tier: 'scan', lines: 20 }).truth.items.map((i) => i.name);
    expect(plain.some((n) => LATIN_PRODUCTS.some((p) => p.name === n))).toBe(false);
  });

  it('continuation sheets without a header keep the column widths and drop header rows and captions', () => {
    const { html } = generateTruth({ seed: 3, type: 'torg12', tier: 'scan', lines: 40, continuation: 'no-header' });
    const pages = html.split('<section class="page">').slice(1);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]).toContain('<tr class="num">');
    for (const p of pages.slice(1)) {
      expect(p).toContain('<colgroup>');
      expect(p).not.toContain('<tr class="num">');
      expect(p).not.toContain('Товарная накладная №');
    }
  });
});
