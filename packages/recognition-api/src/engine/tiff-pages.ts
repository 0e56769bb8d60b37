import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from './image-check.js';

/** TIFF signatures: little-endian `II*\0`, big-endian `MM\0*` (BigTIFF `II+\0` / `MM\0+` too). */
export function isTiff(buf: Buffer): boolean {
  if (buf.length < 4) return false;
  const le = buf[0] === 0x49 && buf[1] === 0x49 && (buf[2] === 0x2a || buf[2] === 0x2b) && buf[3] === 0x00;
  const be = buf[0] === 0x4d && buf[1] === 0x4d && buf[2] === 0x00 && (buf[3] === 0x2a || buf[3] === 0x2b);
  return le || be;
}

/** Pages (directories) of a TIFF from its header, 1 for anything else. */
export async function tiffPageCount(buf: Buffer): Promise<number> {
  if (!isTiff(buf)) return 1;
  const meta = await sharp(buf, { limitInputPixels: false }).metadata();
  return Math.max(1, meta.pages ?? 1);
}

/**
 * The pages of a multi-page TIFF as lossless PNGs, in order (docs/decisions.md "Storage agrees with the rows": a fax or scanner TIFF carries
 * the whole document; reading only its first page lost the rest silently). Anything else, a one-page TIFF
 * included, is returned as it is. Each page was checked at upload (image-check.ts: size limits, truncation).
 */
export async function tiffPages(buf: Buffer): Promise<Buffer[]> {
  const n = await tiffPageCount(buf);
  if (n === 1) return [buf];
  const out: Buffer[] = [];
  for (let page = 0; page < n; page++) out.push(await sharp(buf, { page, limitInputPixels: MAX_IMAGE_PIXELS }).png().toBuffer());
  return out;
}
