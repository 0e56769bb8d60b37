import type { Word } from '../extract/words.js';

/** Resolution the word boxes of a text layer are scaled to: the engine's page coordinates (A4 at 300 DPI). */
export const PDF_DPI = 300;

/** Word confidence of a PDF text layer (0–100 like Tesseract's): the characters are the file's own, not a reading of pixels. */
const TEXT_LAYER_CONF = 100;

/**
 * Parses `pdftotext -tsv` output (poppler ≥ 21): rows `level page_num par_num block_num line_num word_num left
 * top width height conf text`, coordinates in PDF points from the top-left corner; level 5 rows are words.
 * Returns the words of each page (index 0 = page 1) as the extractor's {@link Word}s in 300 DPI pixels
 * (× 300 / 72), with `line` keyed by page, flow, block and line. Pages without words get empty arrays; `pages`
 * sets how many entries the result has.
 */
export function parsePdfTextTsv(tsv: string, pages: number): Word[][] {
  const out: Word[][] = Array.from({ length: pages }, () => []);
  const k = PDF_DPI / 72;
  for (const row of tsv.split('\n')) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const page = Number(c[1]);
    const text = c.slice(11).join('\t').trim();
    if (!(page >= 1 && page <= pages) || text === '') continue;
    out[page - 1].push({
      text,
      conf: TEXT_LAYER_CONF,
      left: Math.round(Number(c[6]) * k),
      top: Math.round(Number(c[7]) * k),
      width: Math.max(1, Math.round(Number(c[8]) * k)),
      height: Math.max(1, Math.round(Number(c[9]) * k)),
      line: `${c[1]}.${c[2]}.${c[3]}.${c[4]}`,
    });
  }
  return out;
}

/**
 * Whether a page's text layer is worth reading instead of OCR: at least {@link MIN_TEXT_WORDS} words with a
 * letter or digit. A scanned page has none; a scanner's "searchable PDF" layer counts as text (it is what the
 * scanner's own OCR read, usually better than ours on its own scan).
 */
export function hasTextLayer(words: Word[]): boolean {
  return words.filter((w) => /[\p{L}\d]/u.test(w.text)).length >= MIN_TEXT_WORDS;
}

/** Fewer words than this on a page means "no text layer" (a page number or a stamp is not a document). */
export const MIN_TEXT_WORDS = 20;
