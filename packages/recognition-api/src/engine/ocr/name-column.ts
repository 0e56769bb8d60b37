import sharp from 'sharp';
import { RecognitionFailedError } from '../engine.port.js';
import { FORMS, findColumnRow, withRuleSpans, type ColumnRow } from '../extract/columns.js';
import { centerX, centerY, groupLines, median, right, type VerticalRule, type Word } from '../extract/words.js';
import type { PreparedPage } from './preprocess.js';
import { runTesseract, type TesseractCall } from './tesseract.js';
import { parseTsv } from './tsv.js';

/** The name column's label in each form (columns.ts). */
const NAME_LABEL = { upd: '1а', invoice: '1а', torg12: '2' } as const;
const MARGIN = 20;
/** Latin letters with no Cyrillic look-alike in print: one of them is evidence that a word is Latin. */
const STRONG_LATIN = /[bdfghijlnqrstuvwzDFGIJLNQRSUVWZ]/;
/** Cyrillic letters with no Latin look-alike: a confident word holding one is a Russian word. */
const ONLY_CYRILLIC = /[бвгджзийлпфцчшщъыьэюяБГДЖЗИЙЛПФЦЧШЩЪЫЬЭЮЯ]/;
/** Glyphs the rus model returns for Latin letters it lacks (`Kпау{`, `АНаз)ез!дп`, `Сегез#`, `С$`). */
const JUNK_GLYPH = /[!$#{}()[\]\\|@©®?]/;
const LATIN = /[A-Za-z]/;

/** The table's name column on a page: x range and the top of the rows (page px), or null without a column row. */
export function nameColumn(words: Word[], rules: VerticalRule[]): { left: number; right: number; top: number } | null {
  const lines = groupLines(words);
  let best: { row: ColumnRow; label: string } | null = null;
  for (const t of ['upd', 'invoice', 'torg12'] as const) {
    const row = findColumnRow(lines, FORMS[t], rules);
    if (row && (!best || (row.matched ?? 0) > (best.row.matched ?? 0))) best = { row, label: NAME_LABEL[t] };
  }
  if (!best) return null;
  const row = best.row.spans ? best.row : withRuleSpans(best.row, rules);
  const span = row.spans?.get(best.label);
  if (span && Number.isFinite(span[0]) && Number.isFinite(span[1])) return { left: span[0], right: span[1], top: row.y };
  const xs = [...row.centers.values()].sort((a, b) => a - b);
  const cx = row.centers.get(best.label);
  if (cx === undefined) return null;
  const i = xs.indexOf(cx);
  const left = i > 0 ? (xs[i - 1] + cx) / 2 : cx - 300;
  const rightX = i < xs.length - 1 ? (cx + xs[i + 1]) / 2 : cx + 300;
  return { left, right: rightX, top: row.y };
}

/**
 * Whether the `rus+eng` reading `cross` should replace the `rus` words `main` it covers: it must hold a Latin letter
 * with no Cyrillic twin (or the rus words hold a glyph the rus model uses for Latin letters it lacks), must not
 * replace a confident Russian word (one with a Cyrillic-only letter), and must be at least about as confident —
 * except over rus words of look-alike capitals and digits only (`МСК` for `NGK`), where its Latin-only letter
 * decides at a fair confidence (≥ 50).
 */
export function prefersLatin(cross: Word, main: Word[]): boolean {
  if (main.length === 0 || !LATIN.test(cross.text)) return false;
  const mainText = main.map((w) => w.text).join('');
  const mainConf = Math.min(...main.map((w) => w.conf));
  const junk = JUNK_GLYPH.test(mainText);
  if (!STRONG_LATIN.test(cross.text) && !junk) return false;
  const russian = ONLY_CYRILLIC.test(mainText);
  if (!junk && mainConf >= 85 && russian) return false;
  // Look-alike capitals and digits only ("МСК", "В-410А"): the Latin-only letter of the other reading decides.
  if (!russian && STRONG_LATIN.test(cross.text)) return cross.conf >= 50;
  return cross.conf >= mainConf - 5 || (junk && cross.conf >= 60);
}

/**
 * Reads the item table's name column a second time with `rus+eng` and takes, word by word, the Latin reading where
 * the rus model garbled a brand or model code (`Эсппеаег` → `Schneider`, `ВКВбЕ-11` → `BKR6E-11`): see
 * {@link prefersLatin}. The whole page is read with `rus` only, because `rus+eng` on a page turns Russian words Latin
 * (`Масло` → `Macno`); the column crop costs one Tesseract call. Pages without a column-number row are returned
 * unchanged, and so is a page whose second read fails (the eng data missing, a Tesseract error). Page px in and out.
 */
export async function rereadNameColumn(
  words: Word[],
  page: Pick<PreparedPage, 'png' | 'width' | 'height' | 'rules'>,
  call: TesseractCall,
): Promise<Word[]> {
  if (call.languages && call.languages !== 'rus') return words; // the page itself was read with Latin already
  const col = nameColumn(words, page.rules);
  if (!col) return words;
  const h = median(words.map((w) => w.height)) || 20;
  const inCol = (w: Word) => centerX(w) > col.left && centerX(w) < col.right && centerY(w) > col.top + h;
  const names = words.filter(inCol);
  if (names.length === 0) return words;
  const box = {
    left: Math.max(0, Math.round(col.left + 2)),
    top: Math.max(0, Math.round(col.top + h)),
    width: 0,
    height: 0,
  };
  box.width = Math.min(page.width, Math.round(col.right - 2)) - box.left;
  box.height = Math.min(page.height, Math.round(Math.max(...names.map((w) => w.top + w.height)) + h)) - box.top;
  if (box.width < 4 * h || box.height < h) return words;
  const crop = await sharp(page.png)
    .extract(box)
    .extend({ top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN, background: '#ffffff' })
    .png()
    .toBuffer();
  let cross: Word[];
  try {
    cross = parseTsv(await runTesseract(crop, ['-l', 'rus+eng', '--psm', '6', '--dpi', '300', 'tsv'], call));
  } catch (err) {
    // A non-zero exit (e.g. no eng data) leaves the page as read; a timeout or a killed Tesseract goes up.
    if (err instanceof RecognitionFailedError && err.reason === 'engine_error') return words;
    throw err;
  }
  const replaced = new Set<Word>();
  const added: Word[] = [];
  for (const c of cross) {
    const w = { ...c, left: c.left - MARGIN + box.left, top: c.top - MARGIN + box.top, line: `names.${c.line}` };
    const covered = names.filter(
      (m) => !replaced.has(m) && centerX(m) > w.left && centerX(m) < right(w) && Math.abs(centerY(m) - centerY(w)) < h / 2,
    );
    if (!prefersLatin(w, covered)) continue;
    for (const m of covered) replaced.add(m);
    added.push(w);
  }
  return added.length === 0 ? words : [...words.filter((w) => !replaced.has(w)), ...added];
}
