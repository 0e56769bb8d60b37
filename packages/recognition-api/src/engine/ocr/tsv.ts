import type { Word } from '../extract/words.js';

/**
 * Parses Tesseract's TSV output (`tesseract … tsv`): one row per layout element; level 5 rows are words with
 * `left top width height conf text`. Empty words and negative confidences (non-text boxes) are dropped.
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
  return words;
}
