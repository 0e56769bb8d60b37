import { describe, expect, it } from 'vitest';
import { makeData, makeItem } from '../../fixtures.js';
import { computeConfidence } from '../../../src/engine/confidence/confidence.js';
import { doubtfulFieldWarnings, SURE_FIELD_CONFIDENCE } from '../../../src/engine/confidence/doubtful-fields.js';

describe('warnings for doubtful values no check can prove', () => {
  const data = makeData({
    items: [
      makeItem({ name: 'Кабель ВВГнг-LS 3х2,5 ок' }),
      makeItem({ number: 2, name: 'Лампа GU10 7W 4000К' }),
      makeItem({ number: 3, name: 'Бумага А4' }),
    ],
  });

  it('names each item or party name and the number read below the sure level, and nothing sure', () => {
    const conf = {
      'document.number': 0.96,
      'seller.name': 0.97,
      'buyer.name': 0.62,
      'items[0].name': 0.93,
      'items[1].name': 0.71,
      'items[2].name': SURE_FIELD_CONFIDENCE,
    };
    const w = doubtfulFieldWarnings(data, conf);
    expect(w.map((x) => x.field)).toEqual(['buyer.name', 'items[1].name']);
    expect(w[1].message).toContain('0.71');
  });

  it('an unrecorded confidence is doubtful; an empty value is not warned twice (validation reports it)', () => {
    const w = doubtfulFieldWarnings({ ...data, buyer: { ...data.buyer, name: null } }, {});
    expect(w.map((x) => x.field)).toEqual(['document.number', 'seller.name', 'items[0].name', 'items[1].name', 'items[2].name']);
  });

  it('five doubtful values bring the document below the manual-check level (0.80)', () => {
    const n = doubtfulFieldWarnings(data, {}).length;
    expect(computeConfidence({ warnings: n, emptyCritical: 0, totalsMismatch: false })).toBeLessThan(0.8);
  });
});
