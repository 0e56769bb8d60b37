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
  // 0.92: the block mean sits a little below the paper tone because of the text in it.
  const out = dividedByPaper(data, bg, (v, paper) => Math.min(255, Math.round((v * 255) / Math.max(40, paper) / 0.92)));
  return sharp(out, { raw: { width, height, channels: 1 } }).normalise();
}

/** The page is reduced this many times before the paper brightness is estimated (8 px blocks at 300 DPI). */
const BLOCK = 8;
/**
 * Radius of the brightest-block search, in blocks: a 9 × 9 block window (72 px, 6 mm at 300 DPI) always holds a
 * gap between text lines (line pitch ≈ 35–50 px) or a cell's empty paper, however dense the table.
 */
const MAX_RADIUS = 4;
/**
 * The paper level the division maps to white, as a share of the brightest-block estimate. At 1 (paper exactly
 * 255) the page stays dark enough that Tesseract merges the 6-pt digits of the column-number row; at 0.75 (what
 * the mean estimate amounted to) thin strokes vanish. Dev-set photo tier, fields wrong of 1,301 / header right of
 * 165: 0.84 701/102, 0.86 659/110, 0.88 453/121, 0.90 470/113, 0.92 577/109, 1.0 633/95; mean estimate 731/105.
 */
const PAPER_SHARE = 0.88;

/**
 * Flat-field correction of a flattened photo's sheet for reading its text (8-bit grayscale, any size): each pixel
 * is divided by {@link PAPER_SHARE} × the local paper brightness and clipped at 255, so shadows and dim corners
 * become white paper while the strokes of blurred small text keep their contrast. Returns a sharp pipeline of the
 * corrected 1-channel image; no contrast stretch follows (with the paper at 255 it only thickens the strokes).
 *
 * The paper brightness is the **brightest** 8 × 8 block mean within 36 px (a grey dilation of the page reduced 8×),
 * smoothed (Gaussian, σ 2 blocks) and enlarged back. The mean of 32 × 32 blocks ({@link evenLight}) sits 20–25 %
 * under the paper of a phone photo's dense blurred table (dev-set photos: paper 190–206, estimate ≈ 149), and
 * dividing by it takes most of a blurred 7-pt glyph to white. The reduction and the enlargement run as separate
 * sharp pipelines: one pipeline keeps only its last `resize`.
 * `border` (px): an outer band painted white by the warp (perspective.ts), left out of the estimate so the paper
 * beside it is not divided by a white that is not its own.
 */
export async function paperLight(img: GrayImage, border = 0): Promise<sharp.Sharp> {
  const { data, width, height } = img;
  const small = await sharp(data, { raw: { width, height, channels: 1 } })
    .resize({ width: Math.max(8, Math.round(width / BLOCK)), height: Math.max(8, Math.round(height / BLOCK)), kernel: 'cubic' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sw = small.info.width;
  const sh = small.info.height;
  const paper = maxFilter(withoutBorder(new Uint8Array(small.data), sw, sh, Math.ceil(border / BLOCK)), sw, sh, MAX_RADIUS);
  const bg = await sharp(Buffer.from(paper), { raw: { width: sw, height: sh, channels: 1 } })
    .blur(2)
    .resize({ width, height, fit: 'fill', kernel: 'cubic' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const out = dividedByPaper(data, bg, (v, paper) => Math.min(255, Math.round((v * 255) / Math.max(40, PAPER_SHARE * paper))));
  return sharp(out, { raw: { width, height, channels: 1 } });
}

/**
 * `level(data[i], paper[i])` for every pixel of an 8-bit page and its paper-brightness estimate (same length), through
 * a table of all 256 × 256 pairs: the same bytes as calling it per pixel, without a float division for each of a
 * page's 8.7 million pixels (≈ 160 ms of a photo's preparation, twice, against ≈ 40 ms).
 */
export function dividedByPaper(data: Uint8Array, paper: Uint8Array, level: (value: number, paper: number) => number): Buffer {
  const table = new Uint8Array(256 * 256);
  for (let p = 0; p < 256; p++) for (let v = 0; v < 256; v++) table[(p << 8) | v] = level(v, p);
  const out = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) out[i] = table[(paper[i] << 8) | data[i]];
  return out;
}
/** The outer `b` pixels of a `w × h` image replaced by the nearest pixel inside them (edge replication), in place. */
function withoutBorder(px: Uint8Array, w: number, h: number, b: number): Uint8Array {
  if (b <= 0 || 2 * b >= w || 2 * b >= h) return px;
  for (let y = 0; y < h; y++) {
    const sy = Math.min(h - 1 - b, Math.max(b, y));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(w - 1 - b, Math.max(b, x));
      if (sx !== x || sy !== y) px[y * w + x] = px[sy * w + sx];
    }
  }
  return px;
}

/**
 * Grey dilation of a `w × h` 8-bit image with a `(2r + 1)²` square window (separable: rows, then columns).
 * Exported for tests.
 */
export function maxFilter(px: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const rows = new Uint8Array(px.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let m = 0;
      for (let k = Math.max(0, x - r); k <= Math.min(w - 1, x + r); k++) m = Math.max(m, px[y * w + k]);
      rows[y * w + x] = m;
    }
  const out = new Uint8Array(px.length);
  for (let x = 0; x < w; x++)
    for (let y = 0; y < h; y++) {
      let m = 0;
      for (let k = Math.max(0, y - r); k <= Math.min(h - 1, y + r); k++) m = Math.max(m, rows[k * w + x]);
      out[y * w + x] = m;
    }
  return out;
}
