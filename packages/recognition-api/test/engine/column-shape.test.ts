import { describe, expect, it } from 'vitest';
import { FORMS, columnAt, findColumnRow, rowByShape } from '../../src/engine/extract/columns.js';
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
