import sharp from 'sharp';
import { decode as decodeBmp } from 'bmp-ts';

/** At most 10 MB per image, 10 MB = 10 × 1024 × 1024 bytes (Spec: Limits). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/**
 * Decoded pixels allowed per page: 50 megapixels (an A4 page at 600 dpi is 35 MP). Larger declared sizes are
 * refused before decoding, which is what stops decompression bombs (sharp `limitInputPixels`).
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** A page image accepted for recognition: the bytes to store (BMP re-encoded as PNG) and what was detected. */
export interface CheckedImage {
  /** Detected from the content, never from the file name. */
  format: 'jpeg' | 'png' | 'webp' | 'tiff' | 'bmp';
  width: number;
  height: number;
  bytes: Buffer;
  /** File extension of `bytes` for storage. */
  ext: 'jpg' | 'png' | 'webp' | 'tiff';
}

/** Why an image was refused; the caller turns it into 422 VALIDATION_ERROR naming the file. */
export class ImageRejected extends Error {}

const SHARP_FORMATS = { jpeg: 'jpg', png: 'png', webp: 'webp', tiff: 'tiff' } as const;

function isBmp(buf: Buffer): boolean {
  return buf.length >= 26 && buf[0] === 0x42 && buf[1] === 0x4d;
}

/**
 * BMP goes through bmp-ts because the libvips bundled with sharp has no BMP loader. The header's declared size is
 * checked first so a bomb is refused before its pixels are allocated; the pixels are then stored as lossless PNG.
 */
async function checkBmp(buf: Buffer): Promise<CheckedImage> {
  const width = Math.abs(buf.readInt32LE(18));
  const height = Math.abs(buf.readInt32LE(22));
  if (width === 0 || height === 0) throw new ImageRejected('BMP header declares an empty image');
  if (width * height > MAX_IMAGE_PIXELS) throw new ImageRejected(`image is ${width}×${height} pixels, more than ${MAX_IMAGE_PIXELS} allowed`);
  let rgba: Buffer;
  try {
    const img = decodeBmp(buf, { toRGBA: true });
    rgba = img.data;
    if (rgba.length < width * height * 4) throw new Error('short pixel data');
  } catch {
    throw new ImageRejected('BMP image is corrupt or truncated');
  }
  const png = await sharp(rgba.subarray(0, width * height * 4), { raw: { width, height, channels: 4 } }).png().toBuffer();
  return { format: 'bmp', width, height, bytes: png, ext: 'png' };
}

/**
 * Accepts one uploaded page: detects JPEG/PNG/WebP/TIFF (sharp metadata) or BMP (magic `BM`) from the bytes,
 * refuses more than {@link MAX_IMAGE_PIXELS}, and decodes the whole image once (`failOn: 'truncated'`) so a
 * truncated or corrupt file is refused at upload rather than failing later in a worker.
 * @throws ImageRejected with a caller-safe reason.
 */
export async function checkImage(buf: Buffer): Promise<CheckedImage> {
  if (buf.length === 0) throw new ImageRejected('file is empty');
  if (isBmp(buf)) return checkBmp(buf);
  const opts = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' as const };
  let meta: sharp.Metadata;
  try {
    // Header only, so no pixel limit here: the declared size is checked below with a clear message.
    meta = await sharp(buf, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected('not a JPEG, PNG, WebP, TIFF or BMP image');
  }
  const format = meta.format as keyof typeof SHARP_FORMATS;
  if (!(format in SHARP_FORMATS)) throw new ImageRejected(`image format "${meta.format}" is not accepted (JPEG, PNG, WebP, TIFF, BMP)`);
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width * height > MAX_IMAGE_PIXELS) throw new ImageRejected(`image is ${width}×${height} pixels, more than ${MAX_IMAGE_PIXELS} allowed`);
  try {
    await sharp(buf, opts).stats();
  } catch {
    throw new ImageRejected(`${format.toUpperCase()} image is corrupt or truncated`);
  }
  return { format, width, height, bytes: buf, ext: SHARP_FORMATS[format] };
}
