import sharp from 'sharp';
import { photoOnTable, STRONG } from './photo-table.js';
import type { Rng } from './random.js';
import type { Tier } from './truth.types.js';

/** Render resolution per tier: scans and photos start from 300 DPI, screenshots are a viewer at ~150 %. */
export const TIER_DPI: Record<Tier, number> = { scan: 300, photo: 300, 'photo-table': 300, 'photo-phone': 300, screenshot: 144 };

/**
 * Phone-photo look from a clean 300 DPI render: resampled to a 12 MP-like width, tilted ±2.5°, slight shear
 * (affine stand-in for perspective), Gaussian blur, a lighting gradient multiplied over the sheet, sensor noise
 * smoothed into the background, JPEG at quality 55–80. All parameters come from `rng`.
 */
async function photo(png: Buffer, rng: Rng): Promise<Buffer> {
  const meta = await sharp(png).metadata();
  const width = Math.round(meta.width! * rng.real(0.78, 0.95));
  const angle = rng.real(-2.5, 2.5);
  const shear = rng.real(-0.015, 0.015);
  const base = await sharp(png)
    .resize({ width })
    .affine(
      [
        [1, shear],
        [0, 1],
      ],
      { background: '#d8d4cc' },
    )
    .rotate(angle, { background: '#c9c4ba' })
    .blur(rng.real(0.5, 1.2))
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = base.info;
  const cx = Math.round(rng.real(0.1, 0.9) * w);
  const cy = Math.round(rng.real(0.1, 0.9) * h);
  const dark = rng.real(0.55, 0.8).toFixed(2);
  const light =
    `<svg width="${w}" height="${h}"><defs><radialGradient id="g" cx="${cx}" cy="${cy}" r="${Math.max(w, h)}" gradientUnits="userSpaceOnUse">` +
    `<stop offset="0" stop-color="#fffdf6"/><stop offset="1" stop-color="rgb(${Math.round(255 * Number(dark))},${Math.round(250 * Number(dark))},${Math.round(240 * Number(dark))})"/></radialGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  return sharp(base.data)
    .composite([{ input: Buffer.from(light), blend: 'multiply' }])
    .jpeg({ quality: rng.int(55, 80) })
    .toBuffer();
}

/**
 * Applies the tier's degradation to one rendered page; `scan` and `screenshot` stay lossless PNG, `photo` and
 * `photo-table` (the sheet on a desk, see photo-table.ts) are JPEG.
 */
export async function applyTier(png: Buffer, tier: Tier, rng: Rng): Promise<Buffer> {
  if (tier === 'photo') return photo(png, rng);
  if (tier === 'photo-table') return (await photoOnTable(png, rng)).jpeg;
  // A hand-held phone (docs/decisions.md "Hard tiers in docgen"): stronger keystone and light, motion blur, 150–170 DPI, JPEG 60–68.
  if (tier === 'photo-phone') return (await photoOnTable(png, rng, STRONG)).jpeg;
  if (tier === 'scan') return sharp(png).grayscale().png({ compressionLevel: 6 }).withMetadata({ density: 300 }).toBuffer();
  return png;
}
