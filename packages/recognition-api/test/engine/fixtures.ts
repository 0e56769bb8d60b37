import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTsv } from '../../src/engine/ocr/tsv.js';
import type { PageWords, Word } from '../../src/engine/extract/words.js';
import type { DocumentType, LineItem, RecognizedData } from '../../src/engine/engine.port.js';

const dir = join(import.meta.dirname, 'fixtures');

/**
 * Real Tesseract output (TSV, `--psm 4`) and the vertical rules found on docgen pages, with the docgen truth:
 * extraction is tested on what Tesseract actually returns, without running it. Regenerate with the docgen seed
 * recorded in the truth file if the page templates change.
 */
export function loadFixture(name: string, pages: number): { pages: PageWords[]; documentType: DocumentType; truth: RecognizedData } {
  const meta = JSON.parse(readFileSync(join(dir, `${name}.truth.json`), 'utf8'));
  return {
    pages: Array.from({ length: pages }, (_, i) => ({
      words: parseTsv(readFileSync(join(dir, `${name}-p${i + 1}.tsv`), 'utf8')),
      rules: JSON.parse(readFileSync(join(dir, `${name}-p${i + 1}.rules.json`), 'utf8')),
    })),
    documentType: meta.documentType,
    truth: meta.truth,
  };
}

/** A word at (left, top) with the default height of 30 px (≈ 10-pt text at 300 DPI) and confidence 95. */
export function word(text: string, left: number, top: number, conf = 95, width = text.length * 18): Word {
  return { text, conf, left, top, width, height: 30, line: `t${top}` };
}

/** A line of words: each entry is [left, text]; a text with spaces becomes words 18 px per letter, 10 px apart. */
export function row(top: number, cells: [number, string][]): Word[] {
  return cells.flatMap(([x, t]) => {
    let left = x;
    return t.split(' ').map((part) => {
      const w = word(part, left, top);
      left += w.width + 10;
      return w;
    });
  });
}

/** A TSV snippet in Tesseract's format (level-5 word rows) for the given words. */
export function toTsv(words: Word[]): string {
  const head = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';
  return [head, ...words.map((w, i) => `5\t1\t1\t1\t${w.top}\t${i + 1}\t${w.left}\t${w.top}\t${w.width}\t${w.height}\t${w.conf}\t${w.text}`)].join(
    '\n',
  );
}

/** A consistent line item (5 × 55.55 = 277.75, VAT 22 % = 61.11, total 338.86; unit 796 «шт»), with `over` applied. */
export const lineItem = (over: Partial<LineItem> = {}): LineItem => ({
  number: 1,
  name: 'Перчатки',
  unit: { code: '796', name: 'шт' },
  quantity: 5,
  price: 55.55,
  amount_without_nds: 277.75,
  nds_rate: 22,
  nds_amount: 61.11,
  amount_with_nds: 338.86,
  ...over,
});
