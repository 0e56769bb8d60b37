import { RecognitionFailedError, type ImageQuality } from '../engine.port.js';
import { loadRussianWords, type RussianWords } from '../extract/russian-words.js';
import type { VerticalRule, Word } from '../extract/words.js';
import { deskewPage, preparePage, rotatePage, type PreparedPage } from './preprocess.js';
import { rereadNameColumn } from './name-column.js';
import { rereadNumberBox } from './number-box.js';
import { rereadMissingTaxIdLines, rereadTaxIdLines } from './tax-id-line.js';
import { estimateSkew, levelRules, levelWords } from './skew.js';
import { parseOsdRotation, runTesseract, type TesseractCall } from './tesseract.js';
import { readPageInBands } from './page-bands.js';
import { parseTsv } from './tsv.js';
import { photoTessdata } from './photo-model.js';

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
/** Fewer {@link uprightWords} than this on a page suggests it lies on its side or upside down. */
export const MIN_UPRIGHT_WORDS = 25;
/** A turn is kept when the turned page has at least twice the upright words of the first read and this many more. */
const TURN_MARGIN = 5;

/**
 * How much of a page read is Russian: its confident words (score 60 or more) of four Cyrillic letters or more, bar
 * punctuation around them, that the dictionary knows. An upside-down page reads as a mirror alphabet whose confident
 * strings look Cyrillic (`эинезон`, `ИНЕИЖ`) but are no words: on the development scans turned 180° such strings
 * numbered 15–31 a page, against 130–250 known words on the same pages upright and 0–3 known words turned. Without
 * the dictionary (`dict` null), the confident strings of three Cyrillic letters or more are counted instead.
 */
export function uprightWords(words: Word[], dict: RussianWords | null): number {
  return words.filter((w) => {
    if (w.conf < 60) return false;
    if (!dict) return /[а-яё]{3,}/i.test(w.text);
    const m = /^[«"„“'(]*([А-Яа-яЁё]{4,})[»"”'.,;:)]*$/.exec(w.text);
    return m !== null && dict.has(m[1]);
  }).length;
}

/**
 * A page's words. With `bands`, a scan or a screenshot is read in two bands side by side where a blank line crosses
 * it (page-bands.ts); a photo always in one read, because Tesseract thresholds a grey image by its whole histogram and
 * a band of a photographed page, lit unevenly, is thresholded otherwise than the page (a development-set photo lost
 * its column-number row so: 112 of 1,301 photo fields wrong in bands against 67 whole).
 */
async function read(page: PreparedPage, call: TesseractCall, quality: ImageQuality, bands: boolean): Promise<Word[]> {
  const args = ocrArgs(call, quality);
  return bands && !page.photo ? readPageInBands(page.png, args, call) : parseTsv(await runTesseract(page.png, args, call));
}

/**
 * OSD's turn is tried first only at this `Orientation confidence` or more. On two development scans turned 90° it
 * reported 13.0 and 14.7. On the prepared photos turned 90° and 270° (30 pages) its six answers at 3.3–6.8 were all
 * right; below 3 it was right once in 24 (three refused, five said 0), so there the page's shape orders the turns
 * (docs/recognition-photo.md "Session 2026-11-30 (3)").
 */
export const OSD_MIN_CONFIDENCE = 3;

async function osdRotation(page: PreparedPage, call: TesseractCall): Promise<number> {
  try {
    return parseOsdRotation(await runTesseract(page.png, ['--psm', '0', '--dpi', '300'], call), OSD_MIN_CONFIDENCE);
  } catch (err) {
    // OSD refuses pages with too little text ("Too few characters"): treat as upright.
    if (err instanceof RecognitionFailedError && err.reason === 'engine_error') return 0;
    throw err;
  }
}

/** What {@link turnUpright} asks of Tesseract and sharp, passed in so the decision can be tested on its own. */
export interface TurnSteps<P> {
  /** OSD's clockwise turn that makes the page upright (0, 90, 180, 270); 0 when OSD cannot tell. */
  osd(page: P): Promise<number>;
  /** The page turned clockwise by `degrees`. */
  rotate(page: P, degrees: number): Promise<P>;
  /** The page's words. */
  read(page: P): Promise<Word[]>;
  /** True when the page is taller than it is wide. */
  portrait(page: P): boolean;
}

/**
 * The turns {@link turnUpright} tries, in order: OSD's own first (`osdTurn`, 0 when OSD is unsure or sees none),
 * then by the page's shape. The three forms are
 * printed landscape, so a portrait image is likelier a sheet on its side (a landscape form scanned or photographed
 * the long way up) and a landscape one a sheet upside down.
 */
export function turnOrder(osdTurn: number, portrait: boolean): number[] {
  const byShape = portrait ? [90, 270, 180] : [180, 90, 270];
  return osdTurn ? [osdTurn, ...byShape.filter((t) => t !== osdTurn)] : byShape;
}

/**
 * A page that lies on its side or upside down, turned upright: when its first read (`words`) has fewer than
 * {@link MIN_UPRIGHT_WORDS} {@link uprightWords}, the turns of {@link turnOrder} are read one after another until
 * one reads as a Russian page (at least {@link MIN_UPRIGHT_WORDS} upright words). A turn is kept only when it has
 * clearly more upright words than the first read (twice as many and {@link TURN_MARGIN} more), the best of them when
 * none reaches a Russian page: OSD guesses on blurred photos (it refuses some as "too few characters", says 0 on
 * others, and under {@link OSD_MIN_CONFIDENCE} names a wrong turn on most), and a wrong turn would lose a page that
 * read badly but upright. Returns the page, its words and the turn kept (0 when none). OSD and one to three reads
 * more, only on a page that reads as little Russian (docs/recognition-engine.md, step 4).
 */
export async function turnUpright<P>(
  page: P,
  words: Word[],
  dict: RussianWords | null,
  steps: TurnSteps<P>,
): Promise<{ page: P; words: Word[]; rotated: number }> {
  const upright = uprightWords(words, dict);
  if (upright >= MIN_UPRIGHT_WORDS) return { page, words, rotated: 0 };
  let best = { page, words, rotated: 0, known: upright };
  for (const turn of turnOrder(await steps.osd(page), steps.portrait(page))) {
    const turned = await steps.rotate(page, turn);
    const again = await steps.read(turned);
    const known = uprightWords(again, dict);
    // By a clear margin: a sparse upright page (a last page of signatures) may have a few known words either way up.
    if (known >= 2 * upright + TURN_MARGIN && known > best.known) best = { page: turned, words: again, rotated: turn, known };
    if (best.known >= MIN_UPRIGHT_WORDS) break;
  }
  return { page: best.page, words: best.words, rotated: best.rotated };
}

/**
 * Normalises and reads one page: sharp normalisation, Tesseract TSV; when few known Russian words come back
 * ({@link uprightWords}), the page is read turned 90/180/270°, OSD's sure turn first, and a turn kept only when that
 * read has clearly more of them ({@link turnUpright}); a tilt above {@link DESKEW_REREAD_DEGREES}
 * is rotated out and read again, a smaller one is levelled in the word coordinates. Two targeted re-reads follow:
 * TORG-12's number box, and UPD/invoice tax-id lines whose value fails its checks (tax-id-line.ts). `opts.deblur`
 * false reads a page without the deconvolution (the engine's second try at a page whose table was not found);
 * `opts.bands` reads a scan's page reads in two bands side by side (page-bands.ts; the engine sets it when a core is idle).
 * A `photo` page is read with the recogniser fine-tuned on photographed form type in every call (photo-model.ts).
 */
export async function ocrPage(
  image: Buffer,
  quality: ImageQuality,
  given: TesseractCall,
  opts: { deblur?: boolean; bands?: boolean } = {},
): Promise<PageOcr> {
  const bands = opts.bands ?? false;
  // A phone photo is read with the recogniser fine-tuned on photographed form type, in every call of the page.
  const tessdataDir = quality === 'photo' ? await photoTessdata(given.tesseractPath) : null;
  const call = tessdataDir ? { ...given, tessdataDir } : given;
  let page = await preparePage(image, quality, opts);
  let words = await read(page, call, quality, bands);
  let rotated = 0;
  ({ page, words, rotated } = await turnUpright(page, words, await loadRussianWords(), {
    osd: (p) => osdRotation(p, call),
    rotate: rotatePage,
    read: (p) => read(p, call, quality, bands),
    portrait: (p) => p.height > p.width,
  }));
  let skew = estimateSkew(words);
  if (Math.abs(skew) > DESKEW_REREAD_DEGREES) {
    page = await deskewPage(page, -skew);
    words = await read(page, call, quality, bands);
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
