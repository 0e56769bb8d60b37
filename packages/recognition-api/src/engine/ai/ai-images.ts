import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '../image-check.js';

/** A page as sent to the vision model: re-encoded JPEG with its size (for the token estimate in the logs). */
export interface AiImage {
  dataUrl: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * Long side of a page sent to the model. Vision APIs scale larger images down to fit 2048×2048 anyway (and bill
 * by 512-px tiles), so sending more only costs upload time; 2000 px keeps 8-pt text of an A4 page legible.
 */
export const AI_LONG_SIDE = 2000;

/**
 * Downscales (never upscales) to {@link AI_LONG_SIDE}, applies EXIF orientation, converts to grayscale and
 * re-encodes as JPEG quality 85: a 10 MB phone photo becomes ~300–600 KB. Runs in the worker pool.
 * @throws Error when the image cannot be decoded.
 */
export async function shrinkForAi(image: Buffer): Promise<AiImage> {
  const { data, info } = await sharp(image, { limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true })
    .rotate()
    .resize({ width: AI_LONG_SIDE, height: AI_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
    .grayscale()
    .jpeg({ quality: 85, mozjpeg: false })
    .toBuffer({ resolveWithObject: true });
  return { dataUrl: `data:image/jpeg;base64,${data.toString('base64')}`, width: info.width, height: info.height, bytes: data.length };
}

/**
 * Image tokens of one page by the published rule of OpenAI-compatible vision models ("high" detail): fit in
 * 2048×2048, shortest side to 768, then 170 tokens per 512-px tile plus 85. An estimate for the logs, not a bill.
 */
export function estimateImageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const short = Math.min(1, 768 / Math.min(w, h));
  w *= short;
  h *= short;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}
