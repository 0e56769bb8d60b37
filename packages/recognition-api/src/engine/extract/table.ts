import { distance } from 'fastest-levenshtein';
import { columnAt, type ColumnRow } from './columns.js';
import { parseLineNumber } from './numbers.js';
import { centerX, isJunk, median, right, type TextLine, type Word } from './words.js';

/** The words of one table cell, in reading order (lines top to bottom, words left to right). */
export interface Cell {
  words: Word[];
  text: string;
}

/** One item row of the table: column label → cell. */
export type RawRow = Map<string, Cell>;

/** The item rows and total lines read from one page. */
export interface PageTable {
  rows: RawRow[];
  /** "Всего к оплате" / "Итого" / "Всего по накладной" lines, label → cell, keyed by their caption. */
  totals: { caption: string; cells: RawRow }[];
  /** True when the page's first row had no line number, i.e. it continues the previous page's last row. */
  continuesPrevious: boolean;
}

const TOTAL_RE = /^(всего\s+к\s+оплате|всего\s+по\s+накладной|итого)/i;
const STOP_RE =
  /(руководитель|главный\s*\(?старший|отпуск\s+груза|товар\s*\(груз\)|дата\s+отгрузки|всего\s+отпущено|индивидуальный\s+предприниматель)/i;

const MONEY_END = /\d[,.]\d{2}$/;
const DIGIT_GROUP = /^[-−]?[\d\s]+(?:[,.]\d+)?$/;

const clean = (w: Word): Word => ({ ...w, text: w.text.replace(/^[|│¦[\]]+|[|│¦[\]]+$/g, '') });

/**
 * Splits a line into phrases: runs of words separated by at most 0.9 × the median word height (a word space is
 * ~0.5), so "429 844,80" or a multi-word name stay one phrase while neighbouring cells (padding, rule, alignment
 * leave ≥ 2 heights) split.
 */
export function phrases(line: TextLine): Word[][] {
  // Rule remnants and dashes printed in empty cells ("--", "—") carry no value.
  const ws = line.words.map(clean).filter((w) => w.text !== '' && !isJunk(w.text));
  const gap = 0.9 * (median(ws.map((w) => w.height)) || 20);
  const out: Word[][] = [];
  for (const w of ws) {
    const cur = out[out.length - 1];
    const d = cur ? w.left - right(cur[cur.length - 1]) : Infinity;
    // A line number is followed by the name in every form; split it off even when the narrow № column leaves a small gap.
    // A name may start with digits too ("2 180223 ДЕРЕВЯННАЯ ИГРУШКА"); a 3-digit group is a thousands group instead ("1 099,15").
    const afterLineNumber =
      cur?.length === 1 && /^\d{1,3}$/.test(cur[0].text) && (/^[^\d\s]/.test(w.text) || !/^\d{3}(?:[,.]\d+)?$/.test(w.text)) && d > gap / 3;
    // An amount followed closely by words ("426 640,00 без акциза" on a 200 DPI scan, where the amount column's
    // padding shrinks to a word space): a finished money value (kopecks printed) ends its phrase when the phrase so
    // far is digits only, so the amount keeps its own column instead of joining the excise cell by its centre.
    const afterAmount =
      cur != null && MONEY_END.test(cur[cur.length - 1].text) && cur.every((c) => DIGIT_GROUP.test(c.text)) && /^[а-яёa-z]/i.test(w.text);
    if (cur && d <= gap && !afterLineNumber && !afterAmount) cur.push(w);
    else out.push([w]);
  }
  return out;
}

/**
 * Splits a phrase where its words fall into different rule-bounded cells (`cols.spans`): text never crosses a printed
 * column border, yet on a photo the erased rule may leave a gap narrower than a word space ("ЦБ-00005929 1 Розетка",
 * "3 301,44 без акциза 22%" read as one phrase). Words outside every span stay with the word before them, and so do a
 * number's thousands groups.
 */
export function splitAtBorders(ph: Word[], cols: ColumnRow): Word[][] {
  if (!cols.spans) return [ph];
  const spanOf = (w: Word) => [...cols.spans!].find(([, [l, r]]) => centerX(w) >= l && centerX(w) <= r)?.[0];
  const out: Word[][] = [];
  let last: string | undefined;
  for (const [i, w] of ph.entries()) {
    const span = spanOf(w);
    // A number's thousands group stays with its head ("5 586,46" in a narrow cell whose border the photo's tilt moved).
    const group = i > 0 && /^\d{1,3}$/.test(ph[i - 1].text) && /^\d{3}(?:[,.]\d*)?$/.test(w.text);
    if (out.length === 0 || (span != null && last != null && span !== last && !group)) out.push([w]);
    else out[out.length - 1].push(w);
    last = span ?? last;
  }
  return out;
}

/** Assigns a line's phrases to columns by their horizontal centre. */
export function lineCells(line: TextLine, cols: ColumnRow): RawRow {
  const cells: RawRow = new Map();
  for (const ph of phrases(line).flatMap((p) => splitAtBorders(p, cols))) {
    const x = (ph[0].left + right(ph[ph.length - 1])) / 2;
    const label = columnAt(cols, x);
    if (!label) continue;
    const cell = cells.get(label) ?? { words: [], text: '' };
    cell.words.push(...ph);
    cell.text = cell.words.map((w) => w.text).join(' ');
    cells.set(label, cell);
  }
  return cells;
}

function appendCells(row: RawRow, more: RawRow): void {
  for (const [label, cell] of more) {
    const cur = row.get(label);
    if (!cur) row.set(label, cell);
    else row.set(label, { words: [...cur.words, ...cell.words], text: `${cur.text} ${cell.text}` });
  }
}

/**
 * Splits a line at a totals caption printed after other text ("Black   Итого 49,733 …": the last wrapped name line
 * of a 1C table shares the line with the sheet's "Итого"): the words left of the caption and the caption onwards.
 */
function splitAtTotal(words: Word[]): [Word[], Word[]] | null {
  const at = words.findIndex((w, i) => i > 0 && /^(итого|всего)$/i.test(w.text));
  return at > 0 ? [words.slice(0, at), words.slice(at)] : null;
}

/** The words of the forms' totals captions, each with the edit distance a blurred photo's reading may be off by. */
const CAPTION_WORDS: [string, number, string][] = [
  ['оплате', 2, 'всего к оплате'],
  ['накладной', 2, 'всего по накладной'],
  ['итого', 1, 'итого'],
];

/**
 * The totals caption of a line whose caption a photo garbled ("Боно к салате" for "Всего к оплате"): one of the
 * line's first three words within a small edit distance of a caption word ({@link CAPTION_WORDS}), on a line with
 * no line number. The captions are the forms' own fixed text, so this matches the form, not the document.
 */
function garbledCaption(words: Word[], numberText: string | undefined): string | null {
  if (numberText != null && parseLineNumber(numberText) != null) return null;
  for (const w of words.slice(0, 3)) {
    const t = w.text.toLowerCase().replace(/[^а-яё]/g, '');
    const hit = CAPTION_WORDS.find(([word, d]) => Math.abs(t.length - word.length) <= d && t.length >= 5 && distance(t, word) <= d);
    if (hit) return hit[2];
  }
  return null;
}

/**
 * Reads the item rows below the column-number row: a line whose number column holds an integer starts a row,
 * other lines (wrapped names, "без акциза" second lines) add to the open row; total lines are collected and
 * signature blocks end the table. `numberLabel` is the "№ п/п" column's label. A line whose line number is
 * unreadable still starts a row when it has a name (`nameLabel`) and an amount (`amountLabel`) and no row is open
 * or the open row has an amount already, or, without a name, when it has figures in four columns or more and the
 * open row has its amount.
 */
export function readTable(lines: TextLine[], cols: ColumnRow, numberLabel: string, amountLabel?: string, nameLabel?: string): PageTable {
  const out: PageTable = { rows: [], totals: [], continuesPrevious: false };
  const xs = [...cols.centers.values()];
  const minX = Math.min(...xs) - 200;
  let current: RawRow | null = null;
  let leading: RawRow | null = null;
  for (const line of lines.slice(cols.lineIndex + 1)) {
    const words = line.words.filter((w) => centerX(w) >= minX);
    if (words.length === 0) continue;
    const text = words
      .map((w) => w.text.replace(/^[|│¦]+/, ''))
      .join(' ')
      .trim();
    const split = TOTAL_RE.test(text) ? null : splitAtTotal(words);
    let total: PageTable['totals'][number] | null = null;
    if (split && current) {
      appendCells(current, lineCells({ ...line, words: split[0] }, cols));
      total = {
        caption: /^итого$/i.test(split[1][0].text) ? 'итого' : /накладной/i.test(text) ? 'всего по накладной' : 'всего к оплате',
        cells: lineCells({ ...line, words: split[1] }, cols),
      };
    } else if (TOTAL_RE.test(text) || /всего\s+к\s+оплате|всего\s+по\s+накладной/i.test(text)) {
      total = {
        caption: text.toLowerCase().startsWith('итого')
          ? 'итого'
          : text.toLowerCase().includes('накладной')
            ? 'всего по накладной'
            : 'всего к оплате',
        cells: lineCells({ ...line, words }, cols),
      };
    } else if (STOP_RE.test(text)) break;
    const cells = total ? total.cells : lineCells({ ...line, words }, cols);
    const garbled = total || !current ? null : garbledCaption(words, cells.get(numberLabel)?.text);
    if (garbled) total = { caption: garbled, cells };
    if (total) {
      out.totals.push(total);
      // The document's grand total ends its table: what follows (the amount in words, the signatures) is no row.
      if (total.caption !== 'итого') break;
      current = null;
      continue;
    }
    const num = cells.get(numberLabel);
    const hasName = nameLabel == null || /[а-яё]{2}/i.test(cells.get(nameLabel)?.text ?? '');
    // A line of figures in four columns or more is a line item even when its name was lost as well (a blurred
    // photo's last row): a wrapped name or a "без акциза" second line holds one figure at most.
    const figures = [...cells].filter(([label, c]) => label !== numberLabel && /\d/.test(c.text) && !/[а-яё]{2}/i.test(c.text)).length;
    const secondAmount =
      amountLabel != null &&
      cells.has(amountLabel) &&
      ((hasName && (current == null || current.has(amountLabel))) || (figures >= 4 && current != null && current.has(amountLabel)));
    if ((num && parseLineNumber(num.text) != null) || secondAmount) {
      current = cells;
      out.rows.push(cells);
    } else if (current) {
      appendCells(current, cells);
    } else if (out.rows.length === 0 && out.totals.length === 0) {
      leading ??= new Map();
      appendCells(leading, cells);
    }
  }
  if (leading && out.rows.length > 0) {
    out.continuesPrevious = true;
    out.rows.unshift(leading);
  }
  return out;
}

/**
 * Joins the tables of consecutive pages into one list of rows: a page that starts with an unnumbered fragment
 * (a name wrapped over the page break) has it appended to the previous page's last row.
 */
export function joinPages(pages: PageTable[]): { rows: RawRow[]; totals: PageTable['totals'] } {
  const rows: RawRow[] = [];
  const totals: PageTable['totals'] = [];
  for (const p of pages) {
    let start = 0;
    if (p.continuesPrevious && rows.length > 0) {
      appendCells(rows[rows.length - 1], p.rows[0]);
      start = 1;
    } else if (p.continuesPrevious) {
      start = 1;
    }
    rows.push(...p.rows.slice(start));
    totals.push(...p.totals);
  }
  return { rows, totals };
}
