import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/engine/extract/extract.js';
import { phrases } from '../../src/engine/extract/table.js';
import { groupLines, type Word } from '../../src/engine/extract/words.js';
import { row } from './fixtures.js';

// TORG-12 column centres (page px) and a line item at a given height; the name column is wide.
const X = [200, 600, 1030, 1170, 1300, 1440, 1600, 1760, 1915, 2090, 2290, 2530, 2720, 2890, 3130];
const numberRow = (top: number) =>
  row(
    top,
    X.map((x, i) => [x - 8, String(i + 1)] as [number, string]),
  );
const item = (top: number, n: number, name: string): Word[] =>
  row(top, [
    [205, String(n)],
    [260, name],
    [1150, 'шт'],
    [1280, '796'],
    [2130, '2'],
    [2280, '100,00'],
    [2490, '200,00'],
    [2690, '20%'],
    [2860, '40,00'],
    [3080, '240,00'],
  ]);
const itogo = (top: number) =>
  row(top, [
    [1700, 'Итого'],
    [2130, '4'],
    [2490, '400,00'],
    [2860, '80,00'],
    [3080, '480,00'],
  ]);
// Column borders (vertical rules) as the engine finds them in the image, over the whole page height.
const EDGES = [150, 240, 960, 1100, 1240, 1370, 1520, 1680, 1840, 2000, 2180, 2400, 2650, 2790, 2990, 3280];
const rules = EDGES.map((x) => ({ x, top: 0, bottom: 2400 }));
const page = (words: Word[]) => ({ words, rules });
const header = (top: number) => [
  ...row(top, [
    [100, 'Но-'],
    [700, 'Товар наименование'],
    [1150, 'Единица измерения'],
  ]),
  ...numberRow(top + 80),
];

describe('item tables continued over pages', () => {
  it('rows printed above the repeated header of the next page (1C via LibreOffice) are read, the header is not', () => {
    const page1 = [...row(100, [[900, 'ТОВАРНАЯ НАКЛАДНАЯ']]), ...header(700), ...item(900, 1, 'Стол письменный'), ...item(980, 2, 'Кресло офисное')];
    // Page 2: line 3 and the sheet's "Итого" (its last name line shares the line with the caption), then
    // "Страница 2", the repeated header and line 4.
    const page2 = [
      ...item(140, 3, 'Лампа светодиодная'),
      ...row(180, [
        [260, 'теплый свет'],
        [1700, 'Итого'],
        [2130, '6'],
        [3080, '720,00'],
      ]),
      ...row(260, [[2800, 'Страница 2']]),
      ...header(320),
      ...item(520, 4, 'Бумага офисная'),
      ...itogo(600),
    ];
    const ex = extractDocument([page(page1), page(page2)], 'torg12');
    expect(ex.data.items.map((i) => [i.number, i.name])).toEqual([
      [1, 'Стол письменный'],
      [2, 'Кресло офисное'],
      [3, 'Лампа светодиодная теплый свет'],
      [4, 'Бумага офисная'],
    ]);
    expect(ex.data.items[2]).toMatchObject({ quantity: 2, amount_with_nds: 240 });
    expect(ex.warnings.filter((w) => /out of sequence/.test(w.message))).toEqual([]);
  });

  it('a continuation page without any header reuses the previous columns; numbering continues', () => {
    const page1 = [...header(700), ...item(900, 1, 'Стол письменный'), ...item(980, 2, 'Кресло офисное')];
    const page2 = [...item(200, 3, 'Лампа светодиодная'), ...item(280, 4, 'Бумага офисная'), ...itogo(360)];
    const ex = extractDocument([page(page1), page(page2)], 'torg12');
    expect(ex.data.items.map((i) => i.number)).toEqual([1, 2, 3, 4]);
    expect(ex.data.totals.amount_with_nds).toBe(480);
  });

  it('a row holding only a line number (a column-number row\'s "1" read as a row) is left out, with a warning', () => {
    const page1 = [...header(700), ...item(900, 1, 'Стол письменный'), ...item(980, 2, 'Кресло офисное')];
    const page2 = [...row(120, [[205, '1']]), ...item(200, 3, 'Лампа светодиодная'), ...item(280, 4, 'Бумага офисная'), ...itogo(360)];
    const ex = extractDocument([page(page1), page(page2)], 'torg12');
    expect(ex.data.items.map((i) => i.number)).toEqual([1, 2, 3, 4]);
    expect(ex.warnings.filter((w) => /out of sequence/.test(w.message))).toEqual([]);
    expect(ex.warnings).toContainEqual({ field: 'items', message: 'a table row with only a line number (1) and no name or figures was left out' });
  });

  it('a page caption above the repeated header is not taken for a row or a wrapped name', () => {
    const page1 = [...header(700), ...item(900, 1, 'Стол письменный')];
    const page2 = [
      ...row(120, [[100, 'Товарная накладная № 5 от 01.02.2026, страница 2']]),
      ...header(320),
      ...item(520, 2, 'Бумага офисная'),
      ...itogo(600),
    ];
    const ex = extractDocument([page(page1), page(page2)], 'torg12');
    expect(ex.data.items.map((i) => [i.number, i.name])).toEqual([
      [1, 'Стол письменный'],
      [2, 'Бумага офисная'],
    ]);
  });
});

describe('line number beside a name that starts with digits', () => {
  it('"2 180223 ИГРУШКА" splits after the line number; "1 099,15" stays one amount', () => {
    const [line1] = groupLines(
      row(100, [
        [205, '2'],
        [240, '180223 ИГРУШКА'],
      ]),
    );
    expect(phrases(line1).map((p) => p.map((w) => w.text).join(' '))).toEqual(['2', '180223 ИГРУШКА']);
    const [line2] = groupLines(row(100, [[2400, '1 099,15']]));
    expect(phrases(line2).map((p) => p.map((w) => w.text).join(' '))).toEqual(['1 099,15']);
  });
});
