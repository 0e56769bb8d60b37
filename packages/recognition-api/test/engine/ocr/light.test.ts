import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { evenLight } from '../../../src/engine/ocr/light.js';
import { preparePage } from '../../../src/engine/ocr/preprocess.js';

const W = 1754;
const H = 1240;
/** Word-like bars: short (so no rule erasure touches them), 10 px high, in rows 50 px apart. */
const BARS = Array.from({ length: 22 }, (_, r) =>
  Array.from({ length: 9 }, (_, c) => ({ x: 80 + c * 180 + ((r * 37) % 40), y: 60 + r * 50, w: 90 + ((r * 13 + c * 29) % 70), h: 10 })),
).flat();

/**
 * A page lit from the right: paper 110 at the left edge rising to 245 at the right (a phone photo's shadow), with
 * text at a quarter of the paper's brightness (black at 75 % opacity).
 */
async function litPage(): Promise<Buffer> {
  const rects = BARS.map((b) => `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" fill="black" fill-opacity="0.75"/>`);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g">` +
    `<stop offset="0" stop-color="rgb(110,110,110)"/><stop offset="1" stop-color="rgb(245,245,245)"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>${rects.join('')}</svg>`;
  return sharp(Buffer.from(svg)).grayscale().png().toBuffer();
}

/** Background spread and text contrast of a corrected page (coordinates scaled from the synthetic page). */
function measure(data: Buffer, width: number, height: number) {
  const sx = width / W;
  const sy = height / H;
  const paper: number[] = [];
  const ink: number[] = [];
  // Paper: the middle of the gaps between text rows; ink: the middle line of each bar.
  for (let r = 0; r < 21; r++) {
    const y = Math.round((60 + r * 50 + 30) * sy);
    for (let x = Math.round(40 * sx); x < width - 40 * sx; x += 7) paper.push(data[y * width + x]);
  }
  for (const b of BARS) {
    const y = Math.round((b.y + b.h / 2) * sy);
    for (let x = Math.round((b.x + 3) * sx); x < (b.x + b.w - 3) * sx; x += 3) ink.push(data[y * width + x]);
  }
  const mean = (xs: number[]) => xs.reduce((a, v) => a + v, 0) / xs.length;
  const m = mean(paper);
  const sd = Math.sqrt(mean(paper.map((v) => (v - m) ** 2)));
  return { paperSd: sd, contrast: m - mean(ink) };
}

describe('flat-field correction (light.ts)', () => {
  it('the input really is unevenly lit: paper spread > 35 levels', async () => {
    const { data, info } = await sharp(await litPage())
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(measure(data, info.width, info.height).paperSd).toBeGreaterThan(35);
  });

  it('evenLight flattens the paper (spread < 8 levels) and keeps the text dark (contrast > 120 levels)', async () => {
    const { data, info } = await sharp(await litPage())
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const out = await (await evenLight({ data, width: info.width, height: info.height })).toColourspace('b-w').raw().toBuffer();
    const m = measure(out, info.width, info.height);
    expect(m.paperSd).toBeLessThan(8);
    expect(m.contrast).toBeGreaterThan(120);
  });

  // The `photo` path of a page that fills the frame; its light correction was one sharp pipeline with two resizes,
  // of which only the last counted: the "paper" was the page blurred by 1.5 px and the text came out as paper.
  it('a `photo` that fills the frame comes out of preparePage evenly lit with its text kept', async () => {
    const page = await preparePage(await litPage(), 'photo');
    expect(page.flattened).toBe(false);
    const { data, info } = await sharp(page.png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const m = measure(data, info.width, info.height);
    expect(m.paperSd).toBeLessThan(8);
    expect(m.contrast).toBeGreaterThan(120);
  }, 120_000);
});
