import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { photoOnTable, placeSheet, STRONG } from '../src/photo-table.js';
import { Rng } from '../src/random.js';

/** Shoelace area of the placed sheet, px². */
const area = (q: number[][]) => Math.abs(q.reduce((a, [x, y], i) => a + x * q[(i + 1) % 4][1] - q[(i + 1) % 4][0] * y, 0)) / 2;

describe('photo-table tier (a sheet photographed on a desk)', () => {
  it('places the sheet inside the frame with a margin, corners in TL, TR, BR, BL order', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const q = placeSheet(2000, 1500, 1500, 1061, new Rng(seed));
      for (const [x, y] of q) {
        expect(x).toBeGreaterThanOrEqual(45);
        expect(x).toBeLessThanOrEqual(1955);
        expect(y).toBeGreaterThanOrEqual(45);
        expect(y).toBeLessThanOrEqual(1455);
      }
      expect(q[0][0]).toBeLessThan(q[1][0]);
      expect(q[3][1]).toBeGreaterThan(q[0][1]);
      // Keystone and rotation change the area by a few per cent, never the order of magnitude.
      expect(area(q) / (1500 * 1061)).toBeGreaterThan(0.85);
      expect(area(q) / (1500 * 1061)).toBeLessThan(1.15);
    }
  });

  it('makes a ~2000 px 4:3 JPEG with the sheet on 55–85 % of it, the same for the same seed', async () => {
    const page = await sharp({ create: { width: 1754, height: 1240, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const a = await photoOnTable(page, new Rng(5));
    const b = await photoOnTable(page, new Rng(5));
    expect(a.jpeg.equals(b.jpeg)).toBe(true);
    const meta = await sharp(a.jpeg).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBeGreaterThanOrEqual(1900);
    expect(meta.width).toBeLessThanOrEqual(2100);
    expect([meta.width, meta.height]).toEqual([a.geometry.width, a.geometry.height]);
    const share = area(a.geometry.corners) / (a.geometry.width * a.geometry.height);
    expect(share).toBeGreaterThan(0.5);
    expect(share).toBeLessThan(0.9);
  }, 120_000);

  it('photo-phone: the sheet at 150–170 DPI, motion-blurred, JPEG 60–68, same for the same seed', async () => {
    const page = await sharp({ create: { width: 3508, height: 2480, channels: 3, background: '#ffffff' } })
      .composite([{ input: { create: { width: 2000, height: 40, channels: 3, background: '#000000' } }, left: 700, top: 1200 }])
      .png()
      .toBuffer();
    const a = await photoOnTable(page, new Rng(7), STRONG);
    const b = await photoOnTable(page, new Rng(7), STRONG);
    expect(a.jpeg.equals(b.jpeg)).toBe(true);
    const [tl, tr, br, bl] = a.geometry.corners;
    // The long side of the sheet (297 mm) at 150–170 DPI, give or take the keystone.
    const top = Math.hypot(tr[0] - tl[0], tr[1] - tl[1]);
    const bottom = Math.hypot(br[0] - bl[0], br[1] - bl[1]);
    const dpi = ((top + bottom) / 2 / 297) * 25.4;
    expect(dpi).toBeGreaterThan(130);
    expect(dpi).toBeLessThan(190);
    const normal = await photoOnTable(page, new Rng(7));
    // Lower JPEG quality and a smaller frame: a smaller file than the photo-table tier of the same page.
    expect(a.jpeg.length).toBeLessThan(normal.jpeg.length);
  }, 120_000);
});
