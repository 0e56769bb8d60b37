import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { photoOnTable, Rng } from '@app/docgen';
import {
  findPageQuad,
  isProperQuad,
  looksLikeSheetOnBackground,
  orderCorners,
  type GrayImage,
  type Point,
} from '../../../src/engine/ocr/page-quad.js';

/**
 * A synthetic printed page: white A4 at 150 DPI (the photo is ~2000 px wide anyway, and this keeps the test fast
 * on a loaded machine) with 20 dark text-like bars; no browser needed.
 */
async function page(width = 1754, height = 1240): Promise<Buffer> {
  const bars = Array.from({ length: 20 }, (_, i) => `<rect x="100" y="${75 + i * 50}" width="${600 + ((i * 97) % 600)}" height="11" fill="#222"/>`);
  return sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${bars.join('')}</svg>`,
    ),
  )
    .png()
    .toBuffer();
}

async function gray(img: Buffer): Promise<GrayImage> {
  const { data, info } = await sharp(img).grayscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const dist = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
/** "Within a few px": the truth is the sheet's outer edge, the detector reports the outermost pixel centres. */
const TOLERANCE_PX = 4;
const SLOW = 120_000;

describe('page quadrilateral of a photo of a sheet on a table', () => {
  it.each([1, 2, 3])(
    'finds the four corners within a few px (landscape sheet, seed %d)',
    async (seed) => {
      const { jpeg, geometry } = await photoOnTable(await page(), new Rng(seed));
      const img = await gray(jpeg);
      expect(looksLikeSheetOnBackground(img)).toBe(true);
      const quad = await findPageQuad(img);
      expect(quad).not.toBeNull();
      quad!.forEach((p, i) => expect(dist(p, geometry.corners[i])).toBeLessThan(TOLERANCE_PX));
    },
    SLOW,
  );

  it(
    'finds the corners of a portrait sheet in the same order (TL, TR, BR, BL)',
    async () => {
      const { jpeg, geometry } = await photoOnTable(await page(2480, 3508), new Rng(4));
      const quad = await findPageQuad(await gray(jpeg));
      quad!.forEach((p, i) => expect(dist(p, geometry.corners[i])).toBeLessThan(TOLERANCE_PX));
    },
    SLOW,
  );

  it(
    'finds no sheet in a flat scan that fills the frame, and the cheap test does not flag it',
    async () => {
      const img = await gray(await page());
      expect(looksLikeSheetOnBackground(img)).toBe(false);
      expect(await findPageQuad(img)).toBeNull();
    },
    SLOW,
  );

  it(
    'finds no sheet in the older `photo` look (page fills the frame, only rotation corners of background)',
    async () => {
      const rotated = await sharp(await page())
        .rotate(2, { background: '#c9c4ba' })
        .png()
        .toBuffer();
      expect(await findPageQuad(await gray(rotated))).toBeNull();
    },
    SLOW,
  );

  // A phone's light falls on desk and sheet alike: here the sheet's dim corner (≈ 160) is darker than the lit desk
  // (≈ 175), so no single grey level separates sheet from desk (Otsu's outline leaked or failed on such photos).
  it(
    'finds the corners of a sheet whose dim corner is darker than the lit part of the desk',
    async () => {
      const [width, height] = [2000, 1414];
      const corners: Point[] = [
        [170, 165],
        [1815, 70],
        [1930, 1265],
        [165, 1355],
      ];
      const bars = Array.from(
        { length: 18 },
        (_, i) => `<rect x="${300 + (i % 3) * 40}" y="${250 + i * 55}" width="${700 + ((i * 97) % 500)}" height="9" fill="#333"/>`,
      );
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="rgb(165,165,165)"/><polygon points="${corners.map((p) => p.join(',')).join(' ')}" fill="rgb(248,248,248)"/>${bars.join('')}</svg>`;
      const { data } = await sharp(Buffer.from(svg)).grayscale().blur(1.2).raw().toBuffer({ resolveWithObject: true });
      // Light from the bottom right: ×0.6 at the top-left corner up to ×1.07 at the bottom-right one.
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const i = y * width + x;
          data[i] = Math.min(255, Math.round(data[i] * (0.6 + 0.47 * ((x / width + y / height) / 2))));
        }
      expect(data[180 * width + 200]).toBeLessThan(data[(height - 20) * width + width - 20]);
      const quad = await findPageQuad({ data, width, height });
      expect(quad).not.toBeNull();
      quad!.forEach((p, i) => expect(dist(p, corners[i])).toBeLessThan(TOLERANCE_PX));
    },
    SLOW,
  );

  it('orders corners top-left, top-right, bottom-right, bottom-left whatever order they come in', () => {
    expect(
      orderCorners([
        [900, 610],
        [95, 40],
        [110, 600],
        [880, 20],
      ]),
    ).toEqual([
      [95, 40],
      [880, 20],
      [900, 610],
      [110, 600],
    ]);
  });

  // Seen on an old-style `photo` (page filling the frame, dark corners): the 4-point hull of a blob turned about
  // 45° gave one corner two roles, and the warp of that triangle came out as a blank page ("no text found").
  it('refuses a degenerate outline: a repeated corner, a bow-tie; accepts a tilted sheet', () => {
    const tri = orderCorners([
      [444, 266],
      [2913, 120],
      [2884, 770],
      [1500, 200],
    ]);
    expect(new Set(tri.map(String)).size).toBeLessThan(4);
    expect(isProperQuad(tri)).toBe(false);
    expect(
      isProperQuad([
        [95, 40],
        [900, 610],
        [880, 20],
        [110, 600],
      ]),
    ).toBe(false);
    expect(
      isProperQuad([
        [95, 40],
        [880, 20],
        [900, 610],
        [110, 600],
      ]),
    ).toBe(true);
  });
});
