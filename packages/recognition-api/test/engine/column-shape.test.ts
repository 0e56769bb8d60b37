import { describe, expect, it } from 'vitest';
import { FORMS, columnAt, findColumnRow, rowByRules, rowByShape } from '../../src/engine/extract/columns.js';
import { groupLines, type VerticalRule } from '../../src/engine/extract/words.js';
import { row } from './fixtures.js';

// An invoice's 15 columns between 15 rules (the right outer border lost at the photo's edge), and its column-number
// row as a blurred phone photo gives it: one token per cell, almost none of them the printed label.
const BORDERS = [120, 300, 1050, 1150, 1250, 1450, 1620, 1810, 2050, 2230, 2350, 2560, 2800, 2940, 3130];
const rules: VerticalRule[] = BORDERS.map((x) => ({ x, top: 700, bottom: 1600 }));
const GARBLED = ['}', 'уз', '}6', ')', '2»', ',', '4', '`', '“', 'ы', 'Г', 'з', 'ю', 'У»', 'и'];
const cellCentre = (i: number) => (i < BORDERS.length - 1 ? (BORDERS[i] + BORDERS[i + 1]) / 2 : BORDERS[i] + 120);
const numberRow = row(
  1000,
  GARBLED.map((t, i) => [cellCentre(i) - 9 * t.length, t] as [number, string]),
);
const item = row(1060, [
  [140, '1'],
  [320, 'Лента'],
  [1180, '796'],
  [1300, 'шт'],
  [1700, '12'],
]);

describe('column-number row by shape (blurred photo)', () => {
  it('labels the cells by position when the row has one short token per rule-bounded cell', () => {
    const lines = groupLines([...numberRow, ...item]);
    expect(findColumnRow(lines, FORMS.invoice)).toBeNull(); // labels alone: unreadable
    const found = findColumnRow(lines, FORMS.invoice, rules);
    expect(found).not.toBeNull();
    expect(found!.y).toBeCloseTo(lines[0].cy, 0);
    expect(columnAt(found!, 320 + 40)).toBe('1а');
    expect(columnAt(found!, 1180 + 20)).toBe('2');
    expect(columnAt(found!, 3300)).toBe('11'); // beyond the last rule found
  });

  it('refuses a line of ordinary text, and a row whose tokens fill fewer cells than the form has', () => {
    const text = groupLines(
      row(1000, [
        [140, 'Всего'],
        [320, 'к'],
        [400, 'оплате'],
        [2000, '1 200,00'],
      ]),
    );
    expect(rowByShape(text, FORMS.invoice, rules)).toBeNull();
    const short = groupLines(numberRow.slice(0, 12));
    expect(rowByShape(short, FORMS.invoice, rules)).toBeNull();
  });

  it('does not take a UPD row (16 cells) for an invoice (15)', () => {
    const upd = [...rules, { x: 3300, top: 700, bottom: 1600 }];
    const lines = groupLines(
      row(
        1000,
        [...GARBLED, '1'].map((t, i) => [cellCentre(i) - 9 * t.length, t] as [number, string]),
      ),
    );
    expect(rowByShape(lines, FORMS.invoice, upd)).toBeNull();
  });
});

// A ТОРГ-12 photo whose column-number row Tesseract dropped (6-pt digits between two thick rules): 16 rules bound
// its 15 columns, plus a rule traced at the photo's page edge; the column titles above, the first item below.
const TORG_BORDERS = [120, 213, 1216, 1442, 1560, 1667, 1795, 1915, 2032, 2198, 2373, 2576, 2823, 2956, 3168, 3414];
const torgRules: VerticalRule[] = [...TORG_BORDERS, 3482].map((x) => ({ x, top: 900, bottom: 1300 }));
const titles = row(950, [
  [300, 'наименование,'],
  [700, 'характеристика'],
  [1300, 'код'],
]);
const torgItem = (y: number, n: string) =>
  row(y, [
    [150, n],
    [240, 'Ламинат'],
    [420, 'класс'],
    [1250, '4605059343137'],
    [1480, 'м2'],
    [1600, '055'],
    [3200, '17 333,76'],
  ]);

describe('column layout by the rules alone (number row not read)', () => {
  it('takes the first line with one cell per column whose first cell holds 1 as the first item', () => {
    const lines = groupLines([...titles, ...torgItem(1040, '1}'), ...torgItem(1085, '2')]);
    expect(findColumnRow(lines, FORMS.torg12)).toBeNull();
    const found = findColumnRow(lines, FORMS.torg12, torgRules);
    expect(found).not.toBeNull();
    expect(found!.lineIndex).toBe(0); // the titles' line stands for the number row; items start after it
    expect(found!.y).toBeLessThan(lines[1].cy - lines[1].words[0].height);
    expect(columnAt(found!, 240)).toBe('2');
    expect(columnAt(found!, 1250)).toBe('3');
    expect(columnAt(found!, 1600)).toBe('5');
    expect(columnAt(found!, 3200)).toBe('15');
  });

  it('finds nothing when the rules make another number of cells or no row starts with 1', () => {
    const lines = groupLines([...titles, ...torgItem(1040, '1')]);
    expect(rowByRules(lines, FORMS.torg12, torgRules.slice(1))).toBeNull(); // 14 columns + the edge rule
    expect(rowByRules(lines, FORMS.upd, torgRules)).toBeNull(); // the UPD has 16 columns; the edge cell is empty
    expect(rowByRules(groupLines([...titles, ...torgItem(1040, 'Итого')]), FORMS.torg12, torgRules)).toBeNull();
    expect(rowByRules(groupLines([...titles, ...torgItem(1040, '12')]), FORMS.torg12, torgRules)).toBeNull();
  });
});

describe('column layout by the rules alone on a UPD', () => {
  it('looks for the line number 1 in column 1, after the product code column А', () => {
    const borders = [120, 298, 367, 1140, 1245, 1340, 1504, 1670, 1871, 2121, 2262, 2377, 2602, 2852, 2966, 3121, 3414];
    const updRules: VerticalRule[] = borders.map((x) => ({ x, top: 900, bottom: 1300 }));
    const item = (y: number, code: string, n: string) =>
      row(y, [
        [140, code],
        [320, n],
        [400, 'Труба'],
        [1280, '006'],
      ]);
    const lines = groupLines([...titles, ...item(1040, '00-0001', '1'), ...item(1085, '00-0002', '2')]);
    const found = rowByRules(lines, FORMS.upd, updRules);
    expect(found).not.toBeNull();
    expect(columnAt(found!, 140)).toBe('А');
    expect(columnAt(found!, 400)).toBe('1а');
    expect(rowByRules(groupLines([...titles, ...item(1040, '1', '—')]), FORMS.upd, updRules)).toBeNull();
  });

  it('counts a border whose trace breaks off just above the first item, and skips the blurred column-number row', () => {
    // The right outer border was traced only beside the table's header (it stops 80 px above the first item), and
    // the column-number row came back with "1." in column 1 and "ла" for "1а": it has the shape of an item row.
    const borders = [120, 298, 367, 1140, 1245, 1340, 1504, 1670, 1871, 2121, 2262, 2377, 2602, 2852, 2966, 3121];
    const updRules: VerticalRule[] = [...borders.map((x) => ({ x, top: 900, bottom: 1300 })), { x: 3414, top: 850, bottom: 1000 }];
    const numberRow = row(1000, [
      [140, '^'],
      [320, '1.'],
      [700, 'ла'],
      [1180, 'МЕ'],
    ]);
    const item = row(1060, [
      [140, '00-0001'],
      [320, '1'],
      [400, 'Труба'],
      [1280, '006'],
      [3200, '—'],
    ]);
    const lines = groupLines([...titles, ...numberRow, ...item]);
    const found = rowByRules(lines, FORMS.upd, updRules);
    expect(found).not.toBeNull();
    expect(found!.lineIndex).toBe(1); // the number row stands before the first item
    expect(columnAt(found!, 400)).toBe('1а');
    expect(columnAt(found!, 3200)).toBe('11');
    // A border that ends far above the line (the header's own rules) is not one of its cells.
    const far = [...updRules.slice(0, -1), { x: 3414, top: 600, bottom: 800 }];
    expect(rowByRules(lines, FORMS.upd, far)).toBeNull();
  });
});
