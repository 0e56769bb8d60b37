import { XMLParser } from 'fast-xml-parser';
import type { Word } from '../extract/words.js';
import { clipOverruns } from './tsv.js';

/** One reading of a glyph: the character and Tesseract's score for it (0–100). */
export interface GlyphReading {
  text: string;
  conf: number;
}

/**
 * One glyph of a word as Tesseract's LSTM read it: the character it chose (`text`, `conf`) and the runner-up
 * characters it weighed for the same glyph (`choices`, the chosen one among them, best first).
 */
export interface GlyphChoices extends GlyphReading {
  choices: GlyphReading[];
}

/** A word with the readings of its glyphs, when Tesseract was asked for them ({@link HOCR_CHOICE_ARGS}). */
export interface WordWithChoices extends Word {
  /** The glyphs in reading order; their `text`s joined are the word's `text`. */
  glyphs?: GlyphChoices[];
}

/**
 * Tesseract arguments (before the `hocr` config) that put each glyph's runner-up readings into the hOCR output:
 * `lstm_choice_mode=2` (the alternatives of every timestep that made a character) and `hocr_char_boxes=1` (the
 * glyph elements they hang on). They change what is reported, not what is recognised.
 */
export const HOCR_CHOICE_ARGS = ['-c', 'lstm_choice_mode=2', '-c', 'hocr_char_boxes=1'] as const;

/** Line-level hOCR classes (Tesseract puts a text line in one of these). */
const LINE_CLASSES = new Set(['ocr_line', 'ocr_textfloat', 'ocr_header', 'ocr_caption']);

type Node = Record<string, unknown> & { ':@'?: Record<string, string> };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
});

/** The element name of a preserve-order node (`span`, `#text`, …). */
const tagOf = (node: Node): string => Object.keys(node).find((k) => k !== ':@') ?? '';
const childrenOf = (node: Node): Node[] => {
  const value = node[tagOf(node)];
  return Array.isArray(value) ? (value as Node[]) : [];
};
const textOf = (node: Node): string =>
  childrenOf(node)
    .map((c) => (tagOf(c) === '#text' ? String(c['#text']) : ''))
    .join('');
/** The number after each `title` key this parser reads; built once, since a page has thousands of glyphs. */
const TITLE_NUMBER = {
  x_wconf: /(?:^|;)\s*x_wconf\s+(-?[\d.]+)/,
  x_conf: /(?:^|;)\s*x_conf\s+(-?[\d.]+)/,
  x_confs: /(?:^|;)\s*x_confs\s+(-?[\d.]+)/,
} as const;
/** A number after `key` in an hOCR `title` (`x_wconf 84`, `x_confs 93.04`), or NaN. */
const titleNumber = (title: string | undefined, key: keyof typeof TITLE_NUMBER): number => {
  const m = TITLE_NUMBER[key].exec(title ?? '');
  return m ? Number(m[1]) : Number.NaN;
};

/**
 * Words of Tesseract's hOCR output (`tesseract … hocr`), in the shape {@link parseTsv} gives for its TSV output
 * (page px box, word score 0–100, a line key of the line's hOCR id), plus, when the output holds them
 * ({@link HOCR_CHOICE_ARGS}), each glyph's readings. Words with no text or a negative score are dropped, and a box
 * that runs over the next word of its line is cut ({@link clipOverruns}), as for TSV. Parsed with fast-xml-parser;
 * an input that is no hOCR gives no words.
 */
export function parseHocr(hocr: string): WordWithChoices[] {
  const words: WordWithChoices[] = [];
  const walk = (nodes: Node[], line: string) => {
    for (const node of nodes) {
      const attrs = node[':@'] ?? {};
      const cls = attrs.class ?? '';
      if (cls === 'ocrx_word') {
        const word = readWord(node, attrs.title, line);
        if (word) words.push(word);
        continue;
      }
      walk(childrenOf(node), LINE_CLASSES.has(cls) ? (attrs.id ?? line) : line);
    }
  };
  walk(parser.parse(hocr) as Node[], '');
  return clipOverruns(words);
}

/** One `ocrx_word` element: its glyphs when it has glyph elements, else its text. */
function readWord(node: Node, title: string | undefined, line: string): WordWithChoices | null {
  const box = /bbox (\d+) (\d+) (\d+) (\d+)/.exec(title ?? '');
  const conf = titleNumber(title, 'x_wconf');
  if (!box || !(conf >= 0)) return null;
  const glyphs: GlyphChoices[] = [];
  for (const child of childrenOf(node)) {
    const attrs = child[':@'] ?? {};
    if (attrs.class !== 'ocrx_cinfo') continue;
    if (attrs.id?.startsWith('lstm_choices')) {
      const last = glyphs.at(-1);
      if (!last) continue;
      for (const choice of childrenOf(child)) {
        const text = textOf(choice);
        const score = titleNumber(choice[':@']?.title, 'x_confs');
        if (text && score >= 0) last.choices.push({ text, conf: score });
      }
      last.choices.sort((a, b) => b.conf - a.conf);
    } else {
      const text = textOf(child);
      if (text) glyphs.push({ text, conf: titleNumber(attrs.title, 'x_conf'), choices: [] });
    }
  }
  const text = (glyphs.length > 0 ? glyphs.map((g) => g.text).join('') : textOf(node)).trim();
  if (!text) return null;
  const [left, top, x1, y1] = box.slice(1).map(Number);
  return { text, conf, left, top, width: x1 - left, height: y1 - top, line, ...(glyphs.length > 0 ? { glyphs } : {}) };
}
