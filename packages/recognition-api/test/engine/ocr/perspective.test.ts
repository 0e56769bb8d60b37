import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { loadOpenCv } from '@app/shared/opencv';
import { a4SizeFor, warpToRectangle } from '../../../src/engine/ocr/perspective.js';
import type { Quad } from '../../../src/engine/ocr/page-quad.js';

const QUAD: Quad = [
  [130, 90],
  [760, 60],
  [720, 560],
  [100, 500],
];
const OUT = { width: 600, height: 400 };
/** Grid points of the flat output, px (kept clear of the 20 px border painted white). */
const GRID = [100, 300, 500].flatMap((x) => [80, 200, 320].map((y) => [x, y] as [number, number]));

/** Where a point of the flat output lies in the photo: the projective map output → quad, via OpenCV. */
async function toPhoto(points: [number, number][]): Promise<[number, number][]> {
  const { cv } = await loadOpenCv();
  const from = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, OUT.width - 1, 0, OUT.width - 1, OUT.height - 1, 0, OUT.height - 1]);
  const to = cv.matFromArray(4, 1, cv.CV_32FC2, QUAD.flat());
  const m = cv.getPerspectiveTransform(from, to);
  const h = Array.from(m.data64F as Float64Array);
  [from, to, m].forEach((x) => x.delete());
  return points.map(([x, y]) => {
    const w = h[6] * x + h[7] * y + h[8];
    return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
  });
}

describe('perspective warp to a flat rectangle', () => {
  it('maps a known grid: dots drawn at the projected grid points land on the grid of the output', async () => {
    const dots = await toPhoto(GRID);
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="650"><rect width="100%" height="100%" fill="#303030"/>` +
      `<polygon points="${QUAD.map((p) => p.join(',')).join(' ')}" fill="white"/>` +
      dots.map(([x, y]) => `<circle cx="${x + 0.5}" cy="${y + 0.5}" r="5" fill="black"/>`).join('') +
      '</svg>';
    const { data, info } = await sharp(Buffer.from(svg)).grayscale().raw().toBuffer({ resolveWithObject: true });
    const out = await warpToRectangle({ data, width: info.width, height: info.height }, QUAD, OUT);
    expect([out.width, out.height]).toEqual([600, 400]);
    const at = (x: number, y: number) => out.data[Math.round(y) * out.width + Math.round(x)];
    for (const [x, y] of GRID) {
      expect(at(x, y)).toBeLessThan(80);
      // 12 px away on every side is paper again: the dot landed within a few px of its grid point.
      for (const [dx, dy] of [
        [12, 0],
        [-12, 0],
        [0, 12],
        [0, -12],
      ])
        expect(at(x + dx, y + dy)).toBeGreaterThan(200);
    }
  }, 60_000);

  it('paints the outer border white (a sliver of desk must not become a table rule)', async () => {
    const dark = { data: new Uint8Array(900 * 650).fill(40), width: 900, height: 650 };
    const out = await warpToRectangle(dark, QUAD, OUT);
    expect([out.data[5 * 600 + 300], out.data[200 * 600 + 5], out.data[200 * 600 + 300]]).toEqual([255, 255, 40]);
  });

  it('chooses A4 at 300 DPI, landscape for a wide outline and portrait for a tall one', () => {
    expect(a4SizeFor(QUAD)).toEqual({ width: 3508, height: 2480 });
    expect(
      a4SizeFor([
        [100, 50],
        [500, 60],
        [520, 600],
        [90, 580],
      ]),
    ).toEqual({ width: 2480, height: 3508 });
  });
});
