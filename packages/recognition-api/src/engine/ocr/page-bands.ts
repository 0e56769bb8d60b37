import sharp from 'sharp';
import type { Word } from '../extract/words.js';
import { parseTsv } from './tsv.js';
import { runTesseract, stoppable, type TesseractCall } from './tesseract.js';

/** A grey page's pixels, one byte each, row by row (0 black … 255 white). */
export interface GreyRaster {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * Where a page is cut in two: along a straight line that may slope with the page's tilt, given per column strip of
 * {@link STRIP} px as the first row of the lower band (`rows[i]` for columns `i * STRIP` to `(i + 1) * STRIP - 1`).
 */
export interface PageCut {
  rows: Int32Array;
}

/** Below this grey level (0–255) a pixel is ink. */
const INK_BELOW = 128;
/** Width (px) of the column strips a cut is followed in: a 1° tilt moves a line under 2 px across one. */
export const STRIP = 96;
/**
 * Fewest blank rows (page px at 300 DPI: 1 mm) a cut may lie in. Text lines of the forms' 7–9 pt type are 25–40 px
 * tall, and a letter's parts (the breve of `й`, the dots of `ё`) lie 3–6 px apart, so a blank run this tall lies
 * between two lines of text, never inside one.
 */
export const MIN_GAP_ROWS = 12;
/** The tilts tried, in degrees: a scan's tilt up to 1.5° (a larger one is rotated out before the page is read again). */
const MAX_TILT = 1.5;
const TILT_STEP = 0.1;
/** A blank row may hold this share of its width in ink (specks of a scan), as long as it is at most a few pixels. */
const SPECKS = 0.001;
/** The cut must leave at least this share of the page's ink on each side, or one band would do nearly all the work. */
const MIN_SHARE = 0.3;

/**
 * The line to cut a page along so that its two bands can be read by two Tesseract processes side by side: the middle
 * of a run of at least {@link MIN_GAP_ROWS} blank rows (no more ink than a few specks; the vertical rules are already
 * erased from the page Tesseract reads, preprocess.ts), with rows taken level and at every tilt within
 * ±{@link MAX_TILT}° (a run blank at some tilt is blank whatever the page's own tilt), so a scan fed in slightly askew
 * is cut between its lines too. Of the runs, the one with the ink above it nearest half the ink, since Tesseract's time
 * follows the text it reads. Null when no run leaves {@link MIN_SHARE} of the ink on each side (a page of one dense
 * block, a sheet tilted further, a layout whose left and right halves interleave their lines).
 */
export function findPageCut(page: GreyRaster): PageCut | null {
  const { data, width, height } = page;
  const strips = Math.ceil(width / STRIP);
  // Ink per row of each strip: a tilt then only shifts each strip's column of counts.
  const ink = new Uint32Array(strips * height);
  let total = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (data[row + x] < INK_BELOW) {
        ink[Math.floor(x / STRIP) * height + y]++;
        total++;
      }
    }
  }
  if (total === 0) return null;
  const specks = Math.max(2, Math.floor(width * SPECKS));
  const centre = (strips - 1) / 2;
  let best: { off: number; rows: Int32Array } | null = null;
  for (let tilt = -MAX_TILT; tilt <= MAX_TILT + 1e-9; tilt += TILT_STEP) {
    const slope = Math.tan((tilt * Math.PI) / 180) * STRIP;
    const shift = Int32Array.from({ length: strips }, (_, i) => Math.round(slope * (i - centre)));
    const lo = Math.max(0, -Math.min(...shift));
    const hi = Math.min(height, height - Math.max(...shift));
    // Ink of each sloped row r (the strips' rows r + shift[i]); rows the slope takes off the page are left out.
    const rows = new Uint32Array(Math.max(0, hi - lo));
    let inSlope = 0;
    for (let r = lo; r < hi; r++) {
      let n = 0;
      for (let i = 0; i < strips; i++) n += ink[i * height + r + shift[i]];
      rows[r - lo] = n;
      inSlope += n;
    }
    let above = 0;
    let start = -1;
    let inkAtStart = 0;
    for (let r = lo; r <= hi; r++) {
      const n = r < hi ? rows[r - lo] : 0;
      const blank = r < hi && n <= specks;
      if (blank && start < 0) {
        start = r;
        inkAtStart = above;
      }
      if (!blank && start >= 0) {
        const share = inkAtStart / inSlope;
        if (r - start >= MIN_GAP_ROWS && share >= MIN_SHARE && share <= 1 - MIN_SHARE) {
          const off = Math.abs(share - 0.5);
          const mid = Math.floor((start + r) / 2);
          if (!best || off < best.off) best = { off, rows: shift.map((s) => mid + s) };
        }
        start = -1;
      }
      above += n;
    }
  }
  return best && { rows: best.rows };
}

/**
 * The two bands of a page cut along `cut`: the upper one from the top to the cut's lowest row, the lower one from its
 * highest row to the bottom, each with the other side of the cut painted white; `lowerTop` is where the lower band
 * starts on the page (px).
 */
export function cutBands(page: GreyRaster, cut: PageCut): { upper: GreyRaster; lower: GreyRaster; lowerTop: number } {
  const { data, width, height } = page;
  const upperHeight = Math.max(...cut.rows);
  const lowerTop = Math.min(...cut.rows);
  const upper = Uint8Array.from(data.subarray(0, upperHeight * width));
  const lower = Uint8Array.from(data.subarray(lowerTop * width));
  for (let x = 0; x < width; x++) {
    const at = cut.rows[Math.floor(x / STRIP)];
    for (let y = at; y < upperHeight; y++) upper[y * width + x] = 255;
    for (let y = lowerTop; y < at; y++) lower[(y - lowerTop) * width + x] = 255;
  }
  return { upper: { data: upper, width, height: upperHeight }, lower: { data: lower, width, height: height - lowerTop }, lowerTop };
}

const toPng = (r: GreyRaster) =>
  sharp(r.data, { raw: { width: r.width, height: r.height, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();

/**
 * A page's TSV words read as two bands side by side when {@link findPageCut} finds a blank line to cut along (each band
 * its own Tesseract process with the page read's `args`, so a page waits for the longer band on a second core and not
 * for the whole page on one), else in one read. The lower band's words are moved back to page px and its line keys
 * told apart from the upper band's (`b.` before them). When one band fails, the other is stopped. Page px out.
 * @throws RecognitionFailedError as {@link runTesseract}.
 */
export async function readPageInBands(png: Buffer, args: string[], call: TesseractCall): Promise<Word[]> {
  const { data, info } = await sharp(png).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  const page = { data, width: info.width, height: info.height };
  const cut = info.channels === 1 ? findPageCut(page) : null;
  if (cut === null) return parseTsv(await runTesseract(png, args, call));
  const { upper, lower, lowerTop } = cutBands(page, cut);
  const [upperPng, lowerPng] = await Promise.all([toPng(upper), toPng(lower)]);
  const both = stoppable(call);
  const read = (img: Buffer) =>
    runTesseract(img, args, both.call).catch((err: unknown) => {
      both.stop();
      throw err;
    });
  const [a, b] = await Promise.all([read(upperPng), read(lowerPng)]);
  return [...parseTsv(a), ...parseTsv(b).map((w) => ({ ...w, top: w.top + lowerTop, line: `b.${w.line}` }))];
}
