import type { Word } from '../extract/words.js';

/**
 * Parses Tesseract's TSV output (`tesseract … tsv`): one row per layout element; level 5 rows are words with
 * `left top width height conf text`. Empty words and negative confidences (non-text boxes) are dropped. A word box
 * that runs over the next word of its own line is cut at that word ({@link clipOverruns}).
 */
export function parseTsv(tsv: string): Word[] {
  const words: Word[] = [];
  for (const row of tsv.split('\n')) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const text = c.slice(11).join('\t').trim();
    const conf = Number(c[10]);
    if (text === '' || !(conf >= 0)) continue;
    words.push({
      text,
      conf,
      left: Number(c[6]),
      top: Number(c[7]),
      width: Number(c[8]),
      height: Number(c[9]),
      line: `${c[1]}.${c[2]}.${c[3]}.${c[4]}`,
    });
  }
  return clipOverruns(words);
}

/**
 * Tesseract's LSTM sometimes returns a word box far wider than its glyphs on blurred text (a photographed
 * twelve-letter word 407 px wide over the two words after it): the box then covers the next words of its line, and the
 * duplicate-word removal (words.ts `dedupe`) took the covered, more confident word for a second reading of the same
 * ink and dropped the long one. Words of one Tesseract line never share ink, so a box that covers the whole of the
 * line's next word (TSV order is reading order) ends a word space before that word. Page px in and out.
 */
export function clipOverruns(words: Word[]): Word[] {
  return words.map((w, i) => {
    const next = words[i + 1];
    if (!next || next.line !== w.line || next.left <= w.left || w.left + w.width < next.left + next.width) return w;
    // A word space before the next word, so the cut word does not touch it.
    return { ...w, width: Math.max(1, next.left - w.left - Math.round(0.25 * w.height)) };
  });
}
