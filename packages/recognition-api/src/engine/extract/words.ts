/**
 * One recognised word with its box in page pixels (after normalisation, ~300 DPI) and Tesseract's confidence
 * (0–100). `line` is Tesseract's own line key (block/paragraph/line), used only to estimate skew.
 */
export interface Word {
  text: string;
  conf: number;
  left: number;
  top: number;
  width: number;
  height: number;
  line: string;
}

/** A vertical table rule found in the image (page px): a column border from `top` to `bottom`. */
export interface VerticalRule {
  x: number;
  top: number;
  bottom: number;
}

/** What extraction needs of one page: its words and, when the image had them, its vertical rules. */
export interface PageWords {
  words: Word[];
  rules?: VerticalRule[];
  /** Read from a phone photo (preprocess.ts `PreparedPage.photo`): its words' scores say less (extract.ts). */
  photo?: boolean;
}

/** A visual text line: words sorted left to right, with their joint box. */
export interface TextLine {
  words: Word[];
  text: string;
  top: number;
  bottom: number;
  cy: number;
}

export const centerX = (w: Word): number => w.left + w.width / 2;
export const centerY = (w: Word): number => w.top + w.height / 2;
export const right = (w: Word): number => w.left + w.width;

/** Table rules and scanner dust that Tesseract reads as "words". */
const JUNK = /^[|│¦!_\-—–=~.,:;'"`’‘“”»«<>\\/]+$/;

/** True for tokens that are pure ruling-line or punctuation noise (kept "--" handled by callers as empty cells). */
export const isJunk = (text: string): boolean => JUNK.test(text);

/** Median of a non-empty list (0 for an empty one). */
export function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function overlap(a: Word, b: Word): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return w <= 0 || h <= 0 ? 0 : (w * h) / Math.min(a.width * a.height, b.width * b.height);
}

/**
 * Drops words that Tesseract returned twice for the same ink (it happens beside a box border: "С Самара,",
 * "от от", each time in two different lines of its output): of two boxes of different lines overlapping by more than
 * half the smaller one, the more confident stays. Two words of one line are never the same ink, however their boxes
 * overlap: on a blurred photo a word's box may reach over the next words ("Общество" over "с"), and the long word
 * was dropped for them.
 */
export function dedupe(words: Word[]): Word[] {
  const sorted = [...words].sort((a, b) => a.left - b.left);
  const drop = new Set<Word>();
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length && sorted[j].left < sorted[i].left + sorted[i].width; j++) {
      if (sorted[i].line === sorted[j].line) continue;
      if (overlap(sorted[i], sorted[j]) > 0.5) drop.add(sorted[i].conf >= sorted[j].conf ? sorted[j] : sorted[i]);
    }
  }
  return words.filter((w) => !drop.has(w));
}

/**
 * Groups words into visual lines by vertical centre: a word joins the current line while its centre lies within
 * 0.6 × the median word height of the line's mean centre. Expects deskewed coordinates.
 */
export function groupLines(words: Word[]): TextLine[] {
  const ws = dedupe(words.filter((w) => w.text.trim() !== '' && !/^[|│¦]+$/.test(w.text)));
  const tol = 0.6 * (median(ws.map((w) => w.height)) || 20);
  const sorted = [...ws].sort((a, b) => centerY(a) - centerY(b));
  const groups: Word[][] = [];
  let sumY = 0;
  for (const w of sorted) {
    const g = groups[groups.length - 1];
    if (g && Math.abs(centerY(w) - sumY / g.length) <= tol) {
      g.push(w);
      sumY += centerY(w);
    } else {
      groups.push([w]);
      sumY = centerY(w);
    }
  }
  return groups.map((g) => {
    const sorted2 = g.sort((a, b) => a.left - b.left);
    const top = Math.min(...g.map((w) => w.top));
    const bottom = Math.max(...g.map((w) => w.top + w.height));
    return { words: sorted2, text: sorted2.map((w) => w.text).join(' '), top, bottom, cy: (top + bottom) / 2 };
  });
}
