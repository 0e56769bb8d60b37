import sharp from 'sharp';
import { decode as decodeBmp } from 'bmp-ts';

/** At most 10 MB per image, 10 MB = 10 × 1024 × 1024 bytes (Spec: Limits). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/**
 * Decoded pixels allowed per page: 50 megapixels (an A4 page at 600 dpi is 35 MP). Larger declared sizes are
 * refused before decoding, which is what stops decompression bombs (sharp `limitInputPixels`).
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Longest side accepted (a 50 MP image 1 px high is no document, and libvips allocates per line). */
export const MAX_IMAGE_SIDE = 20_000;
/**
 * From this size on, an image of a single colour is refused as a decompression bomb: a 7070×7070 one-colour
 * PNG is 146 KB on the wire and 150 MB decoded, and holds nothing to recognise (docs/decisions.md "Fuzz findings").
 * Smaller single-colour images (icons, test pages) go on to recognition, which reports `no_document`.
 */
export const BOMB_MIN_PIXELS = 4_000_000;
/** Long side of the reduced copy the upload check decodes to (full decode for truncation, bounded memory). */
const CHECK_LONG_SIDE = 512;

/** A page image (or PDF, documents/pdf-check.ts) accepted for recognition: the bytes to store (BMP re-encoded as PNG) and what was detected. */
export interface CheckedImage {
  /** Detected from the content, never from the file name. */
  format: 'jpeg' | 'png' | 'webp' | 'tiff' | 'bmp' | 'pdf';
  /** Pixels; for a PDF, its first page at 300 DPI. */
  width: number;
  height: number;
  bytes: Buffer;
  /** File extension of `bytes` for storage. */
  ext: 'jpg' | 'png' | 'webp' | 'tiff' | 'pdf';
  /** Pages of a PDF or a multi-page TIFF (each counts as one image against the limit of 5); absent for one page. */
  pages?: number;
}

/**
 * Pages per recognition request (Spec: Limits, "1 to 5 files"; a PDF or a multi-page TIFF counts each page).
 * Defined here, beside the other image limits, because the pool threads that run the upload check load this
 * module without the HTTP layer (documents/multipart-upload.ts re-exports it as MAX_IMAGES).
 */
export const MAX_PAGES = 5;

/** Why an image was refused; the caller turns it into 422 VALIDATION_ERROR naming the file. */
export class ImageRejected extends Error {}

const SHARP_FORMATS = { jpeg: 'jpg', png: 'png', webp: 'webp', tiff: 'tiff' } as const;

export function isBmp(buf: Buffer): boolean {
  return buf.length >= 26 && buf[0] === 0x42 && buf[1] === 0x4d;
}

/**
 * BMP goes through bmp-ts because the libvips bundled with sharp has no BMP loader. The header's declared size is
 * checked first so a bomb is refused before its pixels are allocated; the pixels are then stored as lossless PNG.
 */
export async function checkBmp(buf: Buffer): Promise<CheckedImage> {
  const width = Math.abs(buf.readInt32LE(18));
  const height = Math.abs(buf.readInt32LE(22));
  if (width === 0 || height === 0) throw new ImageRejected('BMP header declares an empty image');
  checkDimensions(width, height);
  let rgba: Buffer;
  try {
    const img = decodeBmp(buf, { toRGBA: true });
    rgba = img.data;
    if (rgba.length < width * height * 4) throw new Error('short pixel data');
  } catch {
    throw new ImageRejected('BMP image is corrupt or truncated');
  }
  const png = await sharp(rgba.subarray(0, width * height * 4), { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
  return { format: 'bmp', width, height, bytes: png, ext: 'png' };
}

/** Refuses declared sizes no document page has, before a single pixel is decoded. */
export function checkDimensions(width: number, height: number): void {
  if (width * height > MAX_IMAGE_PIXELS) throw new ImageRejected(`image is ${width}×${height} pixels, more than ${MAX_IMAGE_PIXELS} allowed`);
  if (Math.max(width, height) > MAX_IMAGE_SIDE)
    throw new ImageRejected(`image is ${width}×${height} pixels, a side longer than ${MAX_IMAGE_SIDE} is not a page`);
}

/** True when every channel of a raw buffer spans at most 2 levels: one colour (JPEG noise allowed). */
function isSingleColour(data: Buffer, channels: number): boolean {
  for (let c = 0; c < channels; c++) {
    let min = 255;
    let max = 0;
    for (let i = c; i < data.length; i += channels) {
      const v = data[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (max - min > 2) return false;
  }
  return true;
}

/**
 * Accepts one uploaded page: detects JPEG/PNG/WebP/TIFF (sharp metadata) or BMP (magic `BM`) from the bytes,
 * refuses more than {@link MAX_IMAGE_PIXELS} or a side over {@link MAX_IMAGE_SIDE} from the header, then decodes
 * the whole image once (`failOn: 'truncated'`) into a copy reduced to 512 px on the fly (sequential read, so
 * memory stays small whatever the size) so a truncated or corrupt file is refused at upload rather than failing
 * later in a worker, and a large single-colour image is refused as a decompression bomb. Runs in the worker
 * pool (engine/pool), never on the API's event loop.
 * @throws ImageRejected with a caller-safe reason.
 */
export async function checkImage(buf: Buffer): Promise<CheckedImage> {
  if (buf.length === 0) throw new ImageRejected('file is empty');
  if (isBmp(buf)) return checkBmp(buf);
  let meta: sharp.Metadata;
  try {
    // Header only, so no pixel limit here: the declared size is checked below with a clear message.
    meta = await sharp(buf, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected('not a JPEG, PNG, WebP, TIFF or BMP image, nor a PDF');
  }
  const format = meta.format as keyof typeof SHARP_FORMATS;
  if (!(format in SHARP_FORMATS)) throw new ImageRejected(`image format "${meta.format}" is not accepted (JPEG, PNG, WebP, TIFF, BMP, PDF)`);
  // A multi-page TIFF (fax, scanner feeder) is a whole document: every page is checked here and read by the
  // engine (engine/tiff-pages.ts), and counts against the 5 pages of a request (docs/decisions.md "Storage agrees with the rows").
  const pages = format === 'tiff' ? Math.max(1, meta.pages ?? 1) : 1;
  if (pages > MAX_PAGES) throw new ImageRejected(`TIFF has ${pages} pages; at most ${MAX_PAGES} pages per request (each page counts as one image)`);
  const first = await checkPage(buf, format, meta, pages > 1 ? 0 : undefined);
  for (let page = 1; page < pages; page++) {
    let pageMeta: sharp.Metadata;
    try {
      pageMeta = await sharp(buf, { limitInputPixels: false, page }).metadata();
    } catch {
      throw new ImageRejected(`TIFF page ${page + 1} is corrupt`);
    }
    await checkPage(buf, format, pageMeta, page);
  }
  return { format, width: first.width, height: first.height, bytes: buf, ext: SHARP_FORMATS[format], ...(pages > 1 ? { pages } : {}) };
}

/**
 * One page (`page` of a multi-page TIFF, else the image): declared size, full reduced decode (truncation) and the
 * single-colour bomb check. @throws ImageRejected.
 */
async function checkPage(buf: Buffer, format: string, meta: sharp.Metadata, page?: number): Promise<{ width: number; height: number }> {
  const where = page === undefined ? '' : ` (page ${page + 1})`;
  const opts = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' as const, ...(page === undefined ? {} : { page }) };
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width === 0 || height === 0) throw new ImageRejected(`image declares an empty size${where}`);
  checkDimensions(width, height);
  let reduced: { data: Buffer; info: sharp.OutputInfo };
  try {
    reduced = await sharp(buf, { ...opts, sequentialRead: true })
      .resize({ width: CHECK_LONG_SIDE, height: CHECK_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new ImageRejected(`${format.toUpperCase()} image is corrupt or truncated${where}`);
  }
  if (width * height >= BOMB_MIN_PIXELS && isSingleColour(reduced.data, reduced.info.channels)) {
    const kb = Math.max(1, Math.round(buf.length / 1024));
    throw new ImageRejected(`decompression bomb: ${width}×${height} pixels of a single colour packed into ${kb} KB, nothing to recognise`);
  }
  return { width, height };
}
