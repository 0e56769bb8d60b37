import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PHOTO_BLUR_SIGMA } from '../../../src/engine/ocr/deblur.js';
import type { GrayImage } from '../../../src/engine/ocr/page-quad.js';
import { MAX_PHOTO_SIGMA, photoBlurSigma, ruleSpread, TYPICAL_SPREAD } from '../../../src/engine/ocr/rule-blur.js';

const W = 1200;
const H = 900;

/**
 * A ruled table on paper (235): 2-px rules (40) every 60 px both ways, and rows of short "words" between the
 * horizontal rules, which a rule measure must not take for rules.
 */
function table(): Uint8Array {
  const px = new Uint8Array(W * H).fill(235);
  for (let y = 60; y < H - 60; y += 60) for (let x = 0; x < W; x++) for (const d of [0, 1]) px[(y + d) * W + x] = 40;
  for (let x = 60; x < W - 60; x += 60) for (let y = 0; y < H; y++) for (const d of [0, 1]) px[y * W + x + d] = 40;
  for (let y = 60; y < H - 60; y += 60) text(px, y + 24);
  return px;
}

/**
 * A line of "words" at `top`, kept 12 px clear of the cell's rules as printed cells are: 12-px stems, 2 px wide
 * every 5 px, as type reads.
 */
function text(px: Uint8Array, top: number): void {
  for (let x = 0; x < W; x++) if (x % 60 >= 12 && x % 60 < 48 && x % 5 < 2) for (let d = 0; d < 12; d++) px[(top + d) * W + x] = 50;
}

/** The page blurred by a Gaussian of `sigmaX` across columns and `sigmaY` across rows (a 13 × 13 kernel). */
async function blurred(px: Uint8Array, sigmaX: number, sigmaY: number): Promise<GrayImage> {
  const kernel: number[] = [];
  for (let y = -6; y <= 6; y++) for (let x = -6; x <= 6; x++) kernel.push(Math.exp(-(x * x) / (2 * sigmaX ** 2) - (y * y) / (2 * sigmaY ** 2)));
  const scale = kernel.reduce((a, b) => a + b, 0);
  const out = await sharp(px, { raw: { width: W, height: H, channels: 1 } })
    .convolve({ width: 13, height: 13, kernel, scale })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return { data: new Uint8Array(out), width: W, height: H };
}

describe("a page's blur measured on its printed rules", () => {
  it("gives each axis the variance of its blur plus the rule's own width", async () => {
    // A 2-px rule is a box of variance 2²/12 ≈ 0.33; each blur adds σ².
    const sharpPage = ruleSpread({ data: table(), width: W, height: H });
    expect(sharpPage).not.toBeNull();
    expect(sharpPage!.x).toBeCloseTo(0.25, 0);
    expect(sharpPage!.y).toBeCloseTo(0.25, 0);
    const blur = ruleSpread(await blurred(table(), 1.5, 2.5));
    expect(blur!.x).toBeGreaterThan(1.5 ** 2);
    expect(blur!.x).toBeLessThan(1.5 ** 2 + 0.6);
    expect(blur!.y).toBeGreaterThan(2.5 ** 2 - 0.6);
    expect(blur!.y).toBeLessThan(2.5 ** 2 + 0.6);
  });

  it('takes no text line for a rule and says nothing of a page without a ruled table', async () => {
    const px = new Uint8Array(W * H).fill(235);
    for (let y = 60; y < H - 60; y += 30) text(px, y);
    expect(ruleSpread({ data: px, width: W, height: H })).toBeNull();
    expect(ruleSpread(await blurred(px, 1, 1))).toBeNull();
  });
});

describe('the deconvolution σ of a flattened photo', () => {
  const spread = (x: number, y: number) => ({ x, y });

  it('is the tuned photo σ for a typical or sharper page and more for a blurrier one', () => {
    expect(photoBlurSigma(spread(TYPICAL_SPREAD, TYPICAL_SPREAD))).toBe(PHOTO_BLUR_SIGMA);
    expect(photoBlurSigma(spread(7, 7))).toBeGreaterThan(PHOTO_BLUR_SIGMA);
    expect(photoBlurSigma(spread(7.5, 7.5))).toBeGreaterThan(photoBlurSigma(spread(7, 7)));
    expect(photoBlurSigma(spread(4, 4))).toBe(PHOTO_BLUR_SIGMA);
    // The mean of the two axes: a motion blur along one of them counts half.
    expect(photoBlurSigma(spread(9, 6))).toBe(photoBlurSigma(spread(7.5, 7.5)));
  });

  it('stays within its bounds, in steps of 0.05, and falls back to the tuned σ without rules', () => {
    expect(photoBlurSigma(spread(30, 30))).toBe(MAX_PHOTO_SIGMA);
    for (const v of [6.1, 6.37, 6.66, 7.03])
      expect(Math.abs(photoBlurSigma(spread(v, v)) * 20 - Math.round(photoBlurSigma(spread(v, v)) * 20))).toBeLessThan(1e-9);
    expect(photoBlurSigma(null)).toBe(PHOTO_BLUR_SIGMA);
  });
});
