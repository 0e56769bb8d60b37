import sharp from 'sharp';
import type { GrayImage } from './page-quad.js';

/**
 * Flat-field correction of a flattened sheet (8-bit grayscale, any size): each pixel is divided by the local
 * paper brightness, estimated as the page reduced 32× (cubic), blurred and enlarged back, so shadows and dim
 * corners become white paper; then contrast stretched. Returns a sharp pipeline of the corrected 1-channel image.
 * The reduction and the enlargement run as two sharp pipelines: one pipeline keeps only its last `resize`, which
 * would turn the estimate into a light blur of the page itself (and the text into paper).
 */
export async function evenLight(img: GrayImage): Promise<sharp.Sharp> {
  const { data, width, height } = img;
  const small = await sharp(data, { raw: { width, height, channels: 1 } })
    .resize({ width: Math.max(8, Math.round(width / 32)), height: Math.max(8, Math.round(height / 32)), kernel: 'cubic' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const bg = await sharp(small.data, { raw: { width: small.info.width, height: small.info.height, channels: 1 } })
    .blur(1.5)
    .resize({ width, height, fit: 'fill', kernel: 'cubic' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const out = Buffer.alloc(data.length);
  // 0.92: the block mean sits a little below the paper tone because of the text in it.
  for (let i = 0; i < data.length; i++) out[i] = Math.min(255, Math.round((data[i] * 255) / Math.max(40, bg[i]) / 0.92));
  return sharp(out, { raw: { width, height, channels: 1 } }).normalise();
}
