import { RecognitionFailedError, type ImageQuality } from '../engine.port.js';
import type { VerticalRule, Word } from '../extract/words.js';
import { deskewPage, preparePage, rotatePage, type PreparedPage } from './preprocess.js';
import { rereadNameColumn } from './name-column.js';
import { rereadNumberBox } from './number-box.js';
import { rereadMissingTaxIdLines, rereadTaxIdLines } from './tax-id-line.js';
import { estimateSkew, levelRules, levelWords } from './skew.js';
import { parseOsdRotation, runTesseract, type TesseractCall } from './tesseract.js';
import { parseTsv } from './tsv.js';

/** Word boxes of one page in levelled page coordinates, plus what the normalisation did. */
export interface PageOcr {
  words: Word[];
  /** Vertical table rules, in the same levelled coordinates as the words. */
  rules: VerticalRule[];
  width: number;
  height: number;
  /** Clockwise quarter-turn applied after OSD (0, 90, 180, 270). */
  rotated: number;
  /** Skew found, degrees. */
  skew: number;
  /** Read as a phone photo (preprocess.ts `PreparedPage.photo`). */
  photo: boolean;
  /** Read from its deconvolved page (preprocess.ts `PreparedPage.deblurSigma` set, deblur.ts). */
  deblurred: boolean;
}

/**
 * Page segmentation mode 4 (one column of text of variable sizes): keeps table rows as lines and reads narrow cells
 * psm 3 drops. Languages by image quality (measured in docs/recognition-engine.md "Latin letters"): `rus`
 * by default. `rus+eng` reads Latin brand names and model codes ("HP CF283A", which rus returns as "НР СЕ283А" or
 * garbage), settled per token by extract/script.ts, but on the benchmark it also took Cyrillic names ("Масло" →
 * "Macno"): scans fully correct fell from 6/6 to 3/6 on the same seeds, and on photos it lost whole tables. So it is
 * an opt-in (`LocalOcrOptions.languages: 'rus+eng'`) for catalogues with many Latin names, not the default.
 */
export const OCR_LANGS: Record<ImageQuality, string> = { scan: 'rus', screenshot: 'rus', photo: 'rus' };
const ocrArgs = (call: TesseractCall, quality: ImageQuality) => ['-l', call.languages ?? OCR_LANGS[quality], '--psm', '4', '--dpi', '300', 'tsv'];
/** Above this tilt the image is rotated and read again: Tesseract's accuracy drops on tilted rows. */
export const DESKEW_REREAD_DEGREES = 0.8;
/** Fewer confident words than this on a page suggests it lies on its side or upside down. */
const MIN_GOOD_WORDS = 25;

const goodWords = (ws: Word[]) => ws.filter((w) => w.conf >= 60 && /[а-яё]{3,}/i.test(w.text)).length;

async function read(page: PreparedPage, call: TesseractCall, quality: ImageQuality): Promise<Word[]> {
  return parseTsv(await runTesseract(page.png, ocrArgs(call, quality), call));
}

async function osdRotation(page: PreparedPage, call: TesseractCall): Promise<number> {
  try {
    return parseOsdRotation(await runTesseract(page.png, ['--psm', '0', '--dpi', '300'], call));
  } catch (err) {
    // OSD refuses pages with too little text ("Too few characters"): treat as upright.
    if (err instanceof RecognitionFailedError && err.reason === 'engine_error') return 0;
    throw err;
  }
}

/**
 * Normalises and reads one page: sharp normalisation, Tesseract TSV; when few confident words come back, OSD
 * (`--psm 0`) decides a 90/180/270° turn and the page is read again; a tilt above {@link DESKEW_REREAD_DEGREES}
 * is rotated out and read again, a smaller one is levelled in the word coordinates. Two targeted re-reads follow:
 * TORG-12's number box, and UPD/invoice tax-id lines whose value fails its checks (tax-id-line.ts). `opts.deblur`
 * false reads a page without the deconvolution (the engine's second try at a page whose table was not found).
 */
export async function ocrPage(image: Buffer, quality: ImageQuality, call: TesseractCall, opts: { deblur?: boolean } = {}): Promise<PageOcr> {
  let page = await preparePage(image, quality, opts);
  let words = await read(page, call, quality);
  let rotated = 0;
  if (goodWords(words) < MIN_GOOD_WORDS) {
    rotated = await osdRotation(page, call);
    if (rotated !== 0) {
      page = await rotatePage(page, rotated);
      words = await read(page, call, quality);
    }
  }
  let skew = estimateSkew(words);
  if (Math.abs(skew) > DESKEW_REREAD_DEGREES) {
    page = await deskewPage(page, -skew);
    words = await read(page, call, quality);
    const rest = estimateSkew(words);
    skew = rest;
  }
  words = await rereadNumberBox(words, page, call);
  words = await rereadTaxIdLines(words, page, call);
  words = await rereadMissingTaxIdLines(words, page, call);
  words = await rereadNameColumn(words, page, call);
  words = levelWords(words, skew, page.width / 2, page.height / 2);
  const rules = levelRules(page.rules, skew, page.width / 2, page.height / 2);
  return toPagePixels(
    { words, rules, width: page.width, height: page.height, rotated, skew, photo: page.photo, deblurred: page.deblurSigma !== null },
    page.scale,
  );
}

/** A page read from an enlarged image (preprocess.ts `PreparedPage.scale`) in 300 DPI page pixels. */
function toPagePixels(p: PageOcr, scale: number): PageOcr {
  if (scale === 1) return p;
  const s = (v: number) => v / scale;
  return {
    ...p,
    words: p.words.map((w) => ({ ...w, left: s(w.left), top: s(w.top), width: s(w.width), height: s(w.height) })),
    rules: p.rules.map((r) => ({ ...r, x: s(r.x), top: s(r.top), bottom: s(r.bottom) })),
    width: Math.round(s(p.width)),
    height: Math.round(s(p.height)),
  };
}
