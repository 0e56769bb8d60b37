import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { catalogueLine, writeCorpus } from '../../../src/engine/ocr/training/corpus.js';
import { ADDED_CHARACTERS, unicharsetCharacters, writeExtendedStarter } from '../../../src/engine/ocr/training/extend-charset.js';
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

  it('spells model codes as the rus model does: Cyrillic twins, and the Latin letters it is taught', () => {
    let s = 11;
    const rnd = () => {
      s = (s * 48271) % 2147483647;
      return s / 2147483647;
    };
    const text = Array.from({ length: 400 }, () => catalogueLine(WORDS, rnd)).join('\n');
    for (const ch of ['D', 'G', 'R', 'N', 'S', 'Ø', '²']) expect(text).toContain(ch);
    expect(text).not.toMatch(/[ABCEHKMOPTXY]/); // the twins are written Cyrillic: the model has no Latin A, B, C...
  });

  it('extends the unicharset, and lstmtraining keeps the old outputs and trains the added ones', async () => {
    const starter = await writeExtendedStarter(dir, 'rusf', ADDED_CHARACTERS, dir, 'rusx');
    const old = unicharsetCharacters(readFileSync(join(dir, 'rusf.lstm-unicharset'), 'utf8'));
    await promisify(execFile)('combine_tessdata', ['-u', starter.traineddata, join(dir, 'rusx', 'part.')]);
    const now = unicharsetCharacters(readFileSync(join(dir, 'rusx', 'part.lstm-unicharset'), 'utf8'));
    expect(new Set(now)).toEqual(new Set([...old, ...ADDED_CHARACTERS]));
    expect(starter.characters).toBe(old.length + ADDED_CHARACTERS.length);
    // Every character the lines are written with has an output, else lstmtraining skips the line.
    let seed = 5;
    const rnd = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const written = new Set([...Array.from({ length: 400 }, () => catalogueLine(WORDS, rnd)).join('')]);
    expect([...written].filter((ch) => ch !== ' ' && !now.includes(ch))).toEqual([]);

    const list = await writeCorpus(join(dir, 'pages-x'), 1, 11, WORDS, dir, 'rusf');
    writeFileSync(join(dir, 'list-x.txt'), `${list.join('\n')}\n`);
    const { stderr } = await promisify(execFile)('lstmtraining', [
      '--continue_from',
      join(dir, 'rusf.lstm'),
      '--old_traineddata',
      join(dir, 'rusf.traineddata'),
      '--traineddata',
      starter.traineddata,
      '--model_output',
      join(dir, 'x'),
      '--train_listfile',
      join(dir, 'list-x.txt'),
      '--max_iterations',
      '12',
    ]);
    // One new output per added character (the range also holds the space and the null code); every line of the page encodable, so none is skipped.
    expect(stderr).toContain(`Code range changed from ${old.length + 2} to ${old.length + ADDED_CHARACTERS.length + 2}`);
    expect(stderr).not.toContain("Can't encode");
    expect(existsSync(join(dir, 'x_checkpoint'))).toBe(true);
  }, 120_000);
});
