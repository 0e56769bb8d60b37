import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueLine, writeCorpus } from '../../../src/engine/ocr/training/corpus.js';
import { writeFloatTraineddata } from '../../../src/engine/ocr/training/float-traineddata.js';

/** Made-up words: the corpus draws its words from the model's word list; any lower-case words serve the test. */
const WORDS = ['вилка', 'розетка', 'лента', 'клейкая', 'прямая', 'белая', 'кабельная', 'упаковочная'];

describe('training pages for fine-tuning the recogniser on photographed type', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'corpus-test-'));
    await writeFloatTraineddata('rus', '/usr/share/tesseract-ocr/5/tessdata', dir, 'rusf');
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes catalogue-like lines, the same for the same seed', () => {
    const lines = (seed: number) => {
      let s = seed;
      const rnd = () => {
        s = (s * 48271) % 2147483647;
        return s / 2147483647;
      };
      return Array.from({ length: 20 }, () => catalogueLine(WORDS, rnd));
    };
    const a = lines(5);
    expect(lines(5)).toEqual(a);
    expect(lines(6)).not.toEqual(a);
    for (const l of a) expect(l).toMatch(/^[А-ЯЁ]/);
    expect(a.some((l) => /\d/.test(l))).toBe(true); // sizes, weights, codes among the words
  });

  it('renders, degrades and packs a page into a training sample', async () => {
    const list = await writeCorpus(join(dir, 'pages'), 1, 3, WORDS, dir, 'rusf');
    expect(list).toEqual([join(dir, 'pages', 'p3-0.lstmf')]);
    expect(existsSync(list[0])).toBe(true);
    expect(
      readFileSync(join(dir, 'pages', 'p3-0.gt'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(12);
    // Degraded: a grey page whose ink is no longer black, not the renderer's bilevel image.
    const { data } = await sharp(join(dir, 'pages', 'p3-0.tif'))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(new Set(data).size).toBeGreaterThan(32);
    expect(data.reduce((a, b) => Math.min(a, b), 255)).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'pages', 'list-3.txt'), 'utf8').trim()).toBe(list[0]);
  }, 60_000);
});
