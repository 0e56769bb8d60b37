import { describe, expect, it } from 'vitest';
import type { ColumnRow } from '../../src/engine/extract/columns.js';
import { numericText, rowToItem } from '../../src/engine/extract/items.js';
import { FORMS } from '../../src/engine/extract/columns.js';
import { lineCells, readTable } from '../../src/engine/extract/table.js';
import { groupLines } from '../../src/engine/extract/words.js';
import { row } from './fixtures.js';

// An invoice table's columns 1 … 9 as a photo's rules bound them (page px); the rest of the form is not needed here.
const BORDERS: [string, number, number][] = [
  ['1', 100, 180],
  ['1а', 180, 1000],
  ['2', 1000, 1100],
  ['2а', 1100, 1250],
  ['3', 1250, 1450],
  ['4', 1450, 1650],
  ['5', 1650, 1900],
  ['6', 1900, 2100],
  ['7', 2100, 2250],
  ['8', 2250, 2450],
  ['9', 2450, 2700],
];
const cols: ColumnRow = {
  centers: new Map(BORDERS.map(([l, a, b]) => [l, (a + b) / 2])),
  spans: new Map(BORDERS.map(([l, a, b]) => [l, [a, b] as [number, number]])),
  lineIndex: -1,
  y: 0,
};

describe('item cells bounded by the printed column borders (photo)', () => {
  it('splits a phrase that runs over an erased rule, keeping a number and its thousands groups whole', () => {
    // Word spaces only between the number, the name, the amount and the excise text: one phrase by the gaps alone.
    // The amount's comma was lost ("3 301 44"), so nothing but the border ends it before the excise text.
    const line = groupLines(
      row(1000, [
        [130, '1 Лента клейкая'],
        [1040, '796 шт'],
        [1760, '3 301 44 без акциза'],
        [2160, '22%'],
        [2300, '5 586,46'],
      ]),
    )[0];
    const cells = lineCells(line, cols);
    expect(cells.get('1')?.text).toBe('1');
    expect(cells.get('1а')?.text).toBe('Лента клейкая');
    expect(cells.get('2')?.text).toBe('796');
    expect(cells.get('2а')?.text).toBe('шт');
    expect(cells.get('5')?.text).toBe('3 301 44');
    expect(cells.get('6')?.text).toBe('без акциза');
    expect(cells.get('8')?.text).toBe('5 586,46');
  });

  it('reads a number beside the stray glyphs a photo adds, and keeps "без НДС" and look-alike digit groups', () => {
    const cell = (text: string) => ({ text, words: row(0, [[0, text]]) });
    expect(numericText(cell('412,68 }'))).toBe('412,68');
    expect(numericText(cell('195,00. у'))).toBe('195,00.');
    expect(numericText(cell('S 586,46'))).toBe('S 586,46');
    expect(numericText(cell('без НДС'))).toBe('без НДС');
    const item = rowToItem(new Map([['4', cell('412,68 }')]]), FORMS.invoice, 0, {});
    expect(item.price).toBe(412.68);
  });

  it('takes a totals line whose caption the photo garbled for the totals, not for the last row', () => {
    const lines = groupLines([
      ...row(1000, [
        [130, '1'],
        [200, 'Лента'],
        [1500, '2,000'],
        [1700, '100,00'],
        [2500, '244,00'],
      ]),
      ...row(1060, [
        [110, 'Боно к салате'],
        [2300, '44,00'],
        [2500, '244,00'],
      ]),
    ]);
    const table = readTable(lines, cols, '1', '9', '1а');
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0].get('9')?.text).toBe('244,00');
    expect(table.totals).toEqual([expect.objectContaining({ caption: 'всего к оплате' })]);
    // A wrapped name line is not a caption, even with a word near one ("оплата" is 2 edits from "оплате" but sits
    // after three words), and a numbered line never is.
    const wrapped = groupLines([
      ...row(1000, [
        [130, '1'],
        [200, 'Услуги'],
        [2500, '244,00'],
      ]),
      ...row(1060, [[200, 'по договору поставки оплате']]),
    ]);
    expect(readTable(wrapped, cols, '1', '9', '1а').totals).toEqual([]);
  });

  it('ends the table at the grand total: the amount in words under it is no row', () => {
    const lines = groupLines([
      ...row(1000, [
        [130, '1'],
        [200, 'Лента'],
        [2500, '244,00'],
      ]),
      ...row(1060, [
        [110, 'Всего к оплате'],
        [2500, '244,00'],
      ]),
      // Split by the column borders, the sentence has words in the name and in the amount columns.
      ...row(1120, [[200, 'Двести сорок четыре рубля 00 копеек']]),
      ...row(1180, [
        [300, 'Сто'],
        [2500, 'рублей'],
      ]),
    ]);
    const table = readTable(lines, cols, '1', '9', '1а');
    expect(table.rows).toHaveLength(1);
    expect(table.totals).toHaveLength(1);
  });
});
