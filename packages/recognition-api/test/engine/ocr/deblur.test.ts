import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { deblur, PHOTO_BLUR_SIGMA, SCAN_BLUR_SIGMA, wienerKernel } from '../../../src/engine/ocr/deblur.js';
import { preparePage } from '../../../src/engine/ocr/preprocess.js';

const W = 120;
const H = 60;

/** Paper at 250 with two 2-px dark strokes (40) three pixels apart, as a letter's stems at a photo's resolution. */
function stems(): Uint8Array {
  const px = new Uint8Array(W * H).fill(250);
  for (let y = 10; y < 50; y++) for (const x of [58, 59, 63, 64]) px[y * W + x] = 40;
  return px;
}

async function blurred(px: Uint8Array, sigma: number): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(px, { raw: { width: W, height: H, channels: 1 } })
      .blur(sigma)
      .toColourspace('b-w')
      .raw()
      .toBuffer(),
  );
}

describe("deconvolution of a phone photo's defocus blur", () => {
  it('is a sharpening kernel that keeps a flat grey: sums to 1, symmetric, peaked, with a negative ring', () => {
    const k = wienerKernel(1.5, 0.1, 15);
    expect(k.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    const at = (x: number, y: number) => k[(y + 7) * 15 + (x + 7)];
    expect(Math.max(...k)).toBe(at(0, 0));
    expect(at(3, 0)).toBeLessThan(0);
    expect(at(3, 3)).toBeLessThan(0);
    expect(at(3, -1)).toBeCloseTo(at(-3, 1), 6);
    expect(at(1, 2)).toBeCloseTo(at(2, 1), 6);
    // More noise allowed for, a weaker negative ring (less sharpening).
    expect(wienerKernel(1.5, 0.4, 15)[7 * 15 + 10]).toBeGreaterThan(at(3, 0));
    expect(() => wienerKernel(1.5, 0.1, 14)).toThrow(RangeError);
  });

  it('opens the gap a blur closed between two stems and leaves paper as paper', async () => {
    const blur = await blurred(stems(), 1.5);
    const row = 30 * W;
    const gap = (px: Uint8Array) => px[row + 61] - Math.max(px[row + 58], px[row + 64]);
    // Blurred, the gap between the stems is barely lighter than the stems themselves.
    expect(gap(blur)).toBeLessThan(70);
    const sharp2 = (await deblur({ data: blur, width: W, height: H })).data;
    expect(gap(sharp2)).toBeGreaterThan(gap(blur) + 30);
    // The stems get darker again, the paper away from them keeps its grey.
    expect(sharp2[row + 58]).toBeLessThan(blur[row + 58] - 15);
    expect(Math.abs(sharp2[row + 20] - 250)).toBeLessThanOrEqual(1);
    expect(sharp2.length).toBe(W * H);
  });

  it('is applied by preparePage to a photo and to a scan enlarged to 300 DPI, not to a 300 DPI scan; it can be turned off', async () => {
    // A 150 DPI page of blurred stem pairs that fills the frame (no sheet outline): enlarged 2× to 300 DPI.
    const w = 1754;
    const h = 1240;
    const px = new Uint8Array(w * h).fill(235);
    for (let y0 = 100; y0 < h - 100; y0 += 60) {
      for (let x0 = 100; x0 < w - 100; x0 += 40) for (let y = y0; y < y0 + 24; y++) for (const x of [x0, x0 + 1, x0 + 4, x0 + 5]) px[y * w + x] = 110;
    }
    const png = await sharp(px, { raw: { width: w, height: h, channels: 1 } })
      .blur(1.2)
      .png()
      .toBuffer();
    const gapContrast = async (page: { png: Buffer }) => {
      const { data, info } = await sharp(page.png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
      // Enlarged 2× to 300 DPI: on the middle row of the first stem pair, the gap between the stems against them.
      const f = info.width / w;
      const row = Math.round(112 * f) * info.width;
      const at = (from: number, to: number) => Array.from({ length: Math.round((to - from) * f) }, (_, i) => data[row + Math.round(from * f) + i]);
      return Math.max(...at(102, 104)) - Math.min(...at(100, 106));
    };
    const sharpened = await preparePage(png, 'photo');
    const asIs = await preparePage(png, 'photo', { deblur: false });
    // A photo filling the frame (no sheet outline, no rule measure) at the tuned σ; none when turned off.
    expect([sharpened.deblurSigma, asIs.deblurSigma]).toEqual([PHOTO_BLUR_SIGMA, null]);
    expect(await gapContrast(sharpened)).toBeGreaterThan((await gapContrast(asIs)) + 15);
    expect((await preparePage(png, 'scan')).deblurSigma).toBe(SCAN_BLUR_SIGMA);
    expect((await preparePage(png, 'screenshot')).deblurSigma).toBeNull();
    const fullSize = await sharp(png).resize({ width: 3508 }).png().toBuffer();
    expect((await preparePage(fullSize, 'scan')).deblurSigma).toBeNull();
  }, 120_000);
});
