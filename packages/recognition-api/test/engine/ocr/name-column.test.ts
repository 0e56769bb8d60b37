import { describe, expect, it } from 'vitest';
import type { Word } from '../../../src/engine/extract/words.js';
import { prefersLatin } from '../../../src/engine/ocr/name-column.js';

const w = (text: string, conf: number): Word => ({ text, conf, left: 0, top: 0, width: 10 * text.length, height: 20, line: '1' });

describe('prefersLatin: a rus+eng reading of a name word against the rus one', () => {
  it('takes a brand or model code that the rus model garbled', () => {
    expect(prefersLatin(w('Bosch', 93), [w('Возсй', 40)])).toBe(true);
    expect(prefersLatin(w('R-32', 90), [w('В-32', 91)])).toBe(true);
    expect(prefersLatin(w('Kingston', 88), [w('Ктдзюоп', 35)])).toBe(true);
    // A glyph the rus model uses for a Latin letter it lacks decides even without a strong Latin letter.
    expect(prefersLatin(w('CS', 70), [w('С$', 80)])).toBe(true);
    // Look-alike capitals only: the Latin-only letter decides even against a surer rus reading.
    expect(prefersLatin(w('NGK', 70), [w('МСК', 93)])).toBe(true);
    expect(prefersLatin(w('R-410A', 75), [w('В-410А', 95)])).toBe(true);
  });

  it('keeps a confident Russian word, and words whose letters print alike in both alphabets', () => {
    expect(prefersLatin(w('Macno', 80), [w('Масло', 96)])).toBe(false);
    expect(prefersLatin(w('Boga', 85), [w('Вода', 95)])).toBe(false);
    expect(prefersLatin(w('6500K', 95), [w('6500К', 93)])).toBe(false);
    expect(prefersLatin(w('ABC', 95), [w('АВС', 90)])).toBe(false);
    expect(prefersLatin(w('BA', 95), [w('ВА', 90)])).toBe(false);
    expect(prefersLatin(w('CДO-5', 95), [w('СДО-5', 90)])).toBe(false);
  });

  it('keeps the rus reading when the Latin one is much less sure, or has no Latin at all', () => {
    expect(prefersLatin(w('Tpyba', 40), [w('Труба', 70)])).toBe(false);
    expect(prefersLatin(w('125х1,2', 95), [w('125х1.2', 60)])).toBe(false);
    expect(prefersLatin(w('Schneider', 96), [])).toBe(false);
  });
});
