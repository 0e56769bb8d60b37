import { describe, expect, it } from 'vitest';
import { generateTruth, legalInn, personInn } from '../src/index.js';
import { Rng } from '../src/random.js';

const innOk = (inn: string): boolean => {
  const d = inn.split('').map(Number);
  const check = (w: number[]) => (w.reduce((a, x, i) => a + x * d[i], 0) % 11) % 10;
  if (inn.length === 10) return check([2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[9];
  return check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11];
};
const k = (x: number) => Math.round(x * 100);

describe('docgen ground truth', () => {
  it('makes INNs with correct check digits (known vector: 7707083893 is valid)', () => {
    expect(innOk('7707083893')).toBe(true);
    const rng = new Rng(7);
    for (let i = 0; i < 50; i++) {
      expect(innOk(legalInn(rng, '7701'))).toBe(true);
      expect(innOk(personInn(rng, '7701'))).toBe(true);
    }
  });

  it('is deterministic per seed', () => {
    expect(generateTruth({ seed: 42, type: 'upd', tier: 'scan' })).toEqual(generateTruth({ seed: 42, type: 'upd', tier: 'scan' }));
    expect(generateTruth({ seed: 42, type: 'upd', tier: 'scan' }).truth).not.toEqual(generateTruth({ seed: 43, type: 'upd', tier: 'scan' }).truth);
  });

  it('keeps line and total arithmetic exact, VAT by date (20 % in 2025, 22 % in 2026, 10 % food)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { truth } = generateTruth({ seed, type: seed % 2 ? 'torg12' : 'invoice', tier: 'scan' });
      const year = Number(truth.document.date!.slice(6));
      for (const it of truth.items) {
        expect(Math.round(it.quantity! * it.price! * 100)).toBe(k(it.amount_without_nds!));
        expect(k(it.amount_without_nds!) + k(it.nds_amount ?? 0)).toBe(k(it.amount_with_nds!));
        if (it.nds_exempt) expect(it.nds_amount).toBeNull();
        else expect([10, year === 2025 ? 20 : 22]).toContain(it.nds_rate);
      }
      expect(k(truth.totals.amount_with_nds!)).toBe(truth.items.reduce((a, it) => a + k(it.amount_with_nds!), 0));
      expect(truth.items.length).toBeGreaterThanOrEqual(1);
      expect(truth.items.length).toBeLessThanOrEqual(25);
    }
  });

  it('lays long tables over several sheets with the column-number row repeated', () => {
    const { html } = generateTruth({ seed: 3, type: 'upd', tier: 'scan', lines: 25 });
    expect(html.match(/<section class="page">/g)).toHaveLength(2);
    expect(html.match(/<tr class="num">/g)).toHaveLength(2);
  });
});
