import sharp from 'sharp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dividedByPaper, evenLight, maxFilter, paperLight } from '../../../src/engine/ocr/light.js';
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

  // A phone photo's dense table: bold bars cover a quarter of the page, so a block mean sits far under the paper,
  // and thin blurred strokes between them are only ~45 levels darker than the paper. Dividing by the mean
  // (evenLight) takes those strokes to white; the brightest-block estimate keeps them.
  it('paperLight keeps thin faint strokes of a dense page that evenLight takes to white', async () => {
    const w = 1200;
    const h = 960;
    const px = new Uint8Array(w * h).fill(200);
    for (let y0 = 0; y0 < h; y0 += 48) {
      for (let y = y0; y < y0 + 12; y++) px.fill(60, y * w, (y + 1) * w);
      for (let x = 6; x < w; x += 12) for (let y = y0 + 16; y < y0 + 32; y++) px[y * w + x] = 100;
    }
    const data = await sharp(px, { raw: { width: w, height: h, channels: 1 } })
      .blur(1)
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const contrast = (out: Buffer) => {
      const stroke: number[] = [];
      const paper: number[] = [];
      for (let y0 = 96; y0 < h - 96; y0 += 48)
        for (let x = 102; x < w - 102; x += 12) {
          stroke.push(out[(y0 + 24) * w + x]);
          paper.push(out[(y0 + 24) * w + x + 6]);
        }
      const mean = (xs: number[]) => xs.reduce((a, v) => a + v, 0) / xs.length;
      return { paper: mean(paper), contrast: mean(paper) - mean(stroke) };
    };
    const bright = contrast(await (await paperLight({ data, width: w, height: h })).toColourspace('b-w').raw().toBuffer());
    const mean = contrast(await (await evenLight({ data, width: w, height: h })).toColourspace('b-w').raw().toBuffer());
    expect(bright.paper).toBeGreaterThan(250);
    expect(bright.contrast).toBeGreaterThan(30);
    expect(mean.contrast).toBeLessThan(10);
  });

  it('paperLight leaves the white border of a warped sheet out of the paper estimate', async () => {
    const w = 800;
    const h = 600;
    // Paper 180 with a faint stroke at 160 (0.89 × paper, just above the share taken to white).
    const px = new Uint8Array(w * h).fill(180);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (x < 20 || y < 20 || x >= w - 20 || y >= h - 20) px[y * w + x] = 255;
    const at = async (border: number) => {
      const out = await (await paperLight({ data: Buffer.from(px), width: w, height: h }, border)).toColourspace('b-w').raw().toBuffer();
      return out[300 * w + 40];
    };
    // The paper 20 px inside the border is paper; counting the border as paper would leave it grey.
    expect(await at(20)).toBeGreaterThan(250);
    expect(await at(0)).toBeLessThan(240);
  });

  it('maxFilter is a grey dilation with a (2r + 1)² window', () => {
    const px = new Uint8Array(25);
    px[12] = 9;
    px[0] = 4;
    expect(Array.from(maxFilter(px, 5, 5, 1))).toEqual([4, 4, 0, 0, 0, 4, 9, 9, 9, 0, 0, 9, 9, 9, 0, 0, 9, 9, 9, 0, 0, 0, 0, 0, 0]);
  });
});

describe('dividedByPaper', () => {
  it('gives every pixel the level its own value and paper give, as a per-pixel division does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 400 }), fc.integer({ min: 1, max: 99 }), (data, share) => {
        const paper = Uint8Array.from(data, (v, i) => (v * 7 + i * 13) % 256);
        const level = (v: number, p: number) => Math.min(255, Math.round((v * 255) / Math.max(40, (share / 100) * p)));
        const out = dividedByPaper(data, paper, level);
        expect([...out]).toEqual([...data].map((v, i) => level(v, paper[i])));
      }),
    );
  });
});
