import sharp from 'sharp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ruleMask } from '../../../src/engine/ocr/rule-mask.js';
import { removeRules } from '../../../src/engine/ocr/rules.js';

const W = 400;
const H = 600;

/**
 * A photo-like table border: paper at 240, one 1-px rule at x = 200 from y = 50 to 550 in `tone`, broken by
 * 3-px light gaps every 90 px (where the rule crossed a row border and the blur washed it out), then blurred as a
 * phone's defocus does (σ 1.2 px).
 */
async function faintRule(tone: number, gaps: boolean): Promise<Uint8Array> {
  const px = new Uint8Array(W * H).fill(240);
  for (let y = 50; y < 550; y++) if (!gaps || y % 90 > 2) px[y * W + 200] = tone;
  const out = await sharp(px, { raw: { width: W, height: H, channels: 1 } })
    .blur(1.2)
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return new Uint8Array(out);
}

describe('rule finding on phone photos', () => {
  it('finds a faint, blurred, broken column rule by its contrast and bridges the gaps', async () => {
    const px = await faintRule(120, true);
    // The fixed dark level misses it: blurred, the rule's core is lighter than 170 levels.
    expect(removeRules(new Uint8Array(px), W, H)).toEqual([]);
    const mask = await ruleMask({ data: px, width: W, height: H });
    const rules = removeRules(px, W, H, 80, 170, mask);
    expect(rules).toHaveLength(1);
    expect(rules[0].x).toBeCloseTo(200, 0);
    expect(rules[0].top).toBeLessThanOrEqual(52);
    expect(rules[0].bottom).toBeGreaterThanOrEqual(548);
    // ...and erases it: no pixel of the column is left as dark as the rule was.
    expect(Math.min(...Array.from({ length: 490 }, (_, k) => px[(55 + k) * W + 200]))).toBeGreaterThan(200);
  });

  it('does not take a column of text or a horizontal rule for a rule', async () => {
    const px = new Uint8Array(W * H).fill(240);
    // Glyph-sized strokes stacked like the digits of a number column (25 px tall, 15 px apart), and a horizontal rule.
    for (let row = 0; row < 14; row++) for (let y = 0; y < 25; y++) px[(40 * row + 20 + y) * W + 100] = 40;
    for (let x = 0; x < W; x++) px[300 * W + x] = 40;
    const mask = await ruleMask({ data: px, width: W, height: H });
    expect(removeRules(px, W, H, 80, 170, mask)).toEqual([]);
  });
});

describe('a thick rule', () => {
  it('comes back as one rule, however many pixel columns wide (a photo rule darkened and blurred to ~11 px)', () => {
    const w = 300;
    const h = 500;
    const px = new Uint8Array(w * h).fill(240);
    for (let y = 50; y < 450; y++) for (let x = 100; x <= 110; x++) px[y * w + x] = 60;
    const rules = removeRules(px, w, h);
    // Merged against the running mean, the 13 runs (3-px band) split in two rules 9 px apart.
    expect(rules).toHaveLength(1);
    expect(rules[0].x).toBeCloseTo(105, 0);
  });
});

/**
 * The rule walk as it was first written, one column top to bottom: the oracle the row-by-row walk of `removeRules` must
 * match pixel for pixel and rule for rule (same runs, same erasure), on pages of random rules, gaps and specks.
 */
function removeRulesByColumn(px: Uint8Array, width: number, height: number, minRun: number, dark: number, mask?: Uint8Array) {
  const isDark = mask ? (i: number) => mask[i] > 0 : (i: number) => px[i] < dark;
  const maxGap = mask ? Math.max(2, Math.round(minRun / 16)) : 0;
  const erase: [number, number][] = [];
  const runs: { x: number; top: number; bottom: number }[] = [];
  for (let x = 1; x < width - 1; x++) {
    let start = -1;
    let last = -1;
    for (let y = 0; y <= height; y++) {
      const i = y * width + x;
      if (y < height && (isDark(i) || isDark(i - 1) || isDark(i + 1))) {
        if (start < 0) start = y;
        last = y;
        continue;
      }
      if (start >= 0 && (y - last > maxGap || y === height)) {
        if (last + 1 - start >= 2 * minRun) {
          runs.push({ x, top: start, bottom: last + 1 });
          for (let k = start; k <= last; k++) {
            const j = k * width + x;
            if (px[j] < 215) erase.push([j, Math.max(px[j - 4] ?? 255, px[j + 4] ?? 255)]);
          }
        }
        start = -1;
      }
    }
  }
  for (const [i, v] of erase) px[i] = Math.max(px[i], v);
  return runs;
}

describe('removeRules walks the page row by row', () => {
  it('finds and erases exactly what a column-by-column walk does, with and without a contrast mask', () => {
    const page = fc.record({
      width: fc.integer({ min: 12, max: 60 }),
      height: fc.integer({ min: 12, max: 90 }),
      seed: fc.array(fc.record({ x: fc.nat(), y: fc.nat(), len: fc.integer({ min: 1, max: 80 }), tone: fc.integer({ min: 0, max: 255 }) }), {
        maxLength: 30,
      }),
      masked: fc.boolean(),
    });
    fc.assert(
      fc.property(page, ({ width, height, seed, masked }) => {
        const px = new Uint8Array(width * height).fill(240);
        for (const s of seed) {
          const x = s.x % width;
          for (let y = s.y % height; y < Math.min(height, (s.y % height) + s.len); y++) px[y * width + x] = s.tone;
        }
        const mask = masked ? Uint8Array.from(px, (v) => (v < 128 ? 255 : 0)) : undefined;
        const a = Uint8Array.from(px);
        const b = Uint8Array.from(px);
        // minRun 6: runs of 12 rows count, so the small random pages hold rules, gaps and too-short strokes alike.
        const rules = removeRules(a, width, height, 6, 170, mask);
        const oracle = removeRulesByColumn(b, width, height, 6, 170, mask);
        expect(a).toEqual(b);
        expect(rules.length).toBeLessThanOrEqual(oracle.length);
        expect(rules.length > 0).toBe(oracle.length > 0);
      }),
      { numRuns: 300 },
    );
  });
});
