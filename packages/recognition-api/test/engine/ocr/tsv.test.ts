import { describe, expect, it } from 'vitest';
import { clipOverruns, parseTsv } from '../../../src/engine/ocr/tsv.js';
import { dedupe, groupLines, type Word } from '../../../src/engine/extract/words.js';
import { toTsv, word } from '../fixtures.js';

describe('word boxes that run over the next word of their line (blurred photo)', () => {
  // The long word's box reaches 400 px to the right, over the two words after it; the two are more confident.
  const overrun: Word[] = [{ ...word('Шпатлёвка', 400, 1000, 64), width: 400 }, word('212.', 580, 1000, 94), word('ТУ', 660, 1000, 93)];

  it('are cut a word space before the next word of the same line', () => {
    const words = parseTsv(toTsv(overrun));
    expect(words.map((w) => [w.text, w.left, w.width])).toEqual([
      ['Шпатлёвка', 400, 172],
      ['212.', 580, 72],
      ['ТУ', 660, 36],
    ]);
  });

  it('so the cut word and the words after it keep their own places', () => {
    expect(groupLines(parseTsv(toTsv(overrun)))[0].text).toBe('Шпатлёвка 212. ТУ');
  });
});

describe('duplicate-word removal (words.ts dedupe)', () => {
  it('keeps both of two overlapping boxes of one Tesseract line: one line never reads the same ink twice', () => {
    const sameLine = [{ ...word('Общество', 400, 1000, 60), width: 200 }, word('с', 560, 1000, 96)];
    expect(dedupe(sameLine).map((w) => w.text)).toEqual(['Общество', 'с']);
  });

  it('drops the less confident of two boxes of different lines over the same ink', () => {
    const twice = [word('Самара,', 400, 1000, 96), { ...word('С', 400, 1002, 47), line: 'other' }];
    expect(dedupe(twice).map((w) => w.text)).toEqual(['Самара,']);
  });
});

describe('word boxes that run over the next word of their line (continued)', () => {
  it('a word of another line, one before the box or one it only reaches into is not a reason to cut it', () => {
    const otherLine = clipOverruns([
      { ...word('Шпатлёвка', 400, 1000), width: 400 },
      { ...word('212.', 580, 1000), line: 'other' },
    ]);
    expect(otherLine[0].width).toBe(400);
    const before = clipOverruns([{ ...word('мм', 400, 1000), width: 400 }, word('5', 380, 1000)]);
    expect(before[0].width).toBe(400);
    // Reaching into the next word without covering it (a tight space): left to the rest of the pipeline.
    const into = clipOverruns([{ ...word('акциза', 400, 1000), width: 140 }, word('22%', 500, 1000)]);
    expect(into[0].width).toBe(140);
  });
});
