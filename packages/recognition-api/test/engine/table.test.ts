import { describe, expect, it } from 'vitest';
import { FORMS, columnAt, findColumnRow, withRuleSpans } from '../../src/engine/extract/columns.js';
import { rowToItem } from '../../src/engine/extract/items.js';
import { joinPages, readTable } from '../../src/engine/extract/table.js';
import { groupLines } from '../../src/engine/extract/words.js';
import { parseTsv } from '../../src/engine/ocr/tsv.js';
import { row, toTsv } from './fixtures.js';

// A TORG-12 table as Tesseract returns it: column-number row with "3" misread as "з", one item whose name wraps.
const TORG_X = [200, 600, 1030, 1170, 1300, 1440, 1600, 1760, 1915, 2090, 2290, 2530, 2720, 2890, 3130];
const numberRow = row(
  800,
  TORG_X.map((x, i) => [x - 8, i === 2 ? 'з' : String(i + 1)] as [number, string]),
);
const item1 = row(860, [
  [205, '1'],
  [260, 'Профиль направляющий'],
  [990, '15412'],
  [1150, 'шт'],
  [1280, '796'],
  [2130, '33'],
  [2280, '145,82'],
  [2490, '4 812,06'],
  [2690, '20%'],
  [2860, '962,41'],
  [3080, '5 774,47'],
]);
const wrap = row(900, [[260, '27х28']]);
const item2 = row(950, [
  [205, '2'],
  [260, 'Сахар песок'],
  [990, '60038'],
  [1160, 'кг'],
  [1280, '166'],
  [2080, '23,200'],
  [2300, '66,60'],
  [2480, '1545,12'],
  [2690, '10%'],
  [2880, '154,51'],
  [3100, '1699,63'],
]);
const total = row(1010, [
  [1700, 'Итого'],
  [2080, '56,200'],
  [2480, '6357,18'],
  [2860, '1116,92'],
  [3080, '7474,10'],
]);

// Vertical rules of that table (column borders), as the engine finds them in the image.
const EDGES = [150, 240, 960, 1100, 1240, 1370, 1520, 1680, 1840, 2000, 2180, 2400, 2650, 2790, 2990, 3280];
const RULES = EDGES.map((x) => ({ x, top: 700, bottom: 1100 }));

describe('item table reading on TSV word boxes', () => {
  const lines = groupLines(parseTsv(toTsv([...numberRow, ...item1, ...wrap, ...item2, ...total])));

  it('finds the column-number row and maps the form columns by position despite a misread label', () => {
    const cols = findColumnRow(lines, FORMS.torg12)!;
    expect(cols.lineIndex).toBe(0);
    expect(cols.centers.get('3')).toBeCloseTo(1030, -1);
    expect(columnAt(cols, 1310)).toBe('5');
  });

  it('reads rows, joins a wrapped name, maps TORG-12 columns 1–15 to item fields', () => {
    const cols = withRuleSpans(findColumnRow(lines, FORMS.torg12)!, RULES);
    const table = readTable(lines, cols, '1');
    expect(table.rows).toHaveLength(2);
    expect(table.totals.map((t) => t.caption)).toEqual(['итого']);
    const items = table.rows.map((r, i) => rowToItem(r, FORMS.torg12, i, {}));
    expect(items[0]).toEqual({
      number: 1,
      name: 'Профиль направляющий 27х28',
      product_code: '15412',
      unit: { code: '796', name: 'шт' },
      quantity: 33,
      price: 145.82,
      amount_without_nds: 4812.06,
      nds_rate: 20,
      nds_amount: 962.41,
      amount_with_nds: 5774.47,
    });
    expect(items[1]).toMatchObject({ number: 2, name: 'Сахар песок', unit: { code: '166', name: 'кг' }, quantity: 23.2, nds_rate: 10 });
  });

  it('starts a row at a line of figures whose number and name a photo lost, not at a wrapped name', () => {
    // Item 2 as a blurred photo gives it: no line number, no name, the figures all there.
    const figuresOnly = item2.filter((w) => !['2', 'Сахар', 'песок'].includes(w.text));
    const ls = groupLines(parseTsv(toTsv([...numberRow, ...item1, ...wrap, ...figuresOnly, ...total])));
    const cols = withRuleSpans(findColumnRow(ls, FORMS.torg12)!, RULES);
    const table = readTable(ls, cols, '1', '15', '2');
    expect(table.rows).toHaveLength(2);
    const items = table.rows.map((r, i) => rowToItem(r, FORMS.torg12, i, {}));
    expect(items[0]).toMatchObject({ number: 1, name: 'Профиль направляющий 27х28', amount_with_nds: 5774.47 });
    expect(items[1]).toMatchObject({ number: 2, name: '', quantity: 23.2, amount_with_nds: 1699.63 });
  });

  it('keeps an amount in its column when "без акциза" follows it at a word space (200 DPI scan)', () => {
    // Invoice columns: the amount (5) ends one word space before the excise text (6) that starts at its border.
    const inv = row(
      800,
      ['1', '1а', '1б', '2', '2а', '3', '4', '5', '6', '7', '8', '9'].map((l, i) => [300 + i * 200, l] as [number, string]),
    );
    const line = [
      ...row(860, [
        [300, '1'],
        [500, 'Гвозди'],
        [1300, '12,000'],
        [1500, '58,40'],
        [1652, '700,80'],
      ]),
      ...row(860, [[1774, 'без акциза']]),
      ...row(860, [
        [1990, '22%'],
        [2100, '154,18'],
        [2300, '854,98'],
      ]),
    ];
    const ls = groupLines(parseTsv(toTsv([...inv, ...line])));
    const cols = findColumnRow(ls, FORMS.invoice)!;
    const [cells] = readTable(ls, cols, '1').rows;
    expect(cells.get('5')?.text).toBe('700,80');
    expect(cells.get('6')?.text).toBe('без акциза');
    // A name with a decimal in it stays one phrase: it is not digits only.
    const name = readTable(
      groupLines(
        parseTsv(
          toTsv([
            ...inv,
            ...row(860, [
              [300, '1'],
              [500, 'Вода 0,50 л'],
            ]),
          ]),
        ),
      ),
      cols,
      '1',
    ).rows[0];
    expect(name.get('1а')?.text).toBe('Вода 0,50 л');
  });

  it('reads the 2025 UPD row (ПП 1096) with the traceability columns 12, 12а, 13 after 11', () => {
    const labels = [...FORMS.upd.labels, '12', '12а', '13'];
    const x = (l: string) => 300 + labels.indexOf(l) * 230;
    const head = row(
      800,
      labels.map((l) => [x(l), l] as [number, string]),
    );
    const item = row(860, [
      [x('А'), 'ЦБ-417'],
      [x('1'), '1'],
      [x('1а'), 'Насос'],
      [x('2'), '796'],
      [x('2а'), 'шт'],
      [x('3'), '2'],
      [x('4'), '150,00'],
      [x('5'), '300,00'],
      [x('7'), '22%'],
      [x('8'), '66,00'],
      [x('9'), '366,00'],
      [x('11'), '10013000/'],
      [x('12'), '7841326'],
      [x('12а'), 'шт'],
      [x('13'), '2'],
    ]);
    const ls = groupLines(parseTsv(toTsv([...head, ...item])));
    const cols = findColumnRow(ls, FORMS.upd)!;
    const [r] = readTable(ls, cols, '1').rows;
    expect(rowToItem(r, FORMS.upd, 0, {})).toMatchObject({
      number: 1,
      quantity: 2,
      price: 150,
      amount_without_nds: 300,
      nds_amount: 66,
      amount_with_nds: 366,
      unit: { code: '796' },
    });
  });

  it('uses vertical rules as column borders: a short name far from its column centre stays in the name column', () => {
    const cols = findColumnRow(lines, FORMS.torg12)!;
    const ruled = withRuleSpans(cols, RULES);
    expect(columnAt(cols, 350)).toBe('1'); // nearest centre alone gets it wrong
    expect(columnAt(ruled, 350)).toBe('2');
  });

  it('joins a table continued on the next page, including a name wrapped over the page break', () => {
    const cols = withRuleSpans(findColumnRow(lines, FORMS.torg12)!, RULES);
    const page1 = readTable(lines.slice(0, 3), cols, '1');
    const page2Lines = groupLines([...numberRow, ...row(860, [[260, 'с']]), ...item2.map((w) => ({ ...w, top: 900 })), ...total]);
    const page2 = readTable(page2Lines, withRuleSpans(findColumnRow(page2Lines, FORMS.torg12)!, RULES), '1');
    expect(page2.continuesPrevious).toBe(true);
    const joined = joinPages([page1, page2]);
    expect(joined.rows).toHaveLength(2);
    expect(rowToItem(joined.rows[0], FORMS.torg12, 0, {}).name).toBe('Профиль направляющий 27х28 с');
    expect(rowToItem(joined.rows[1], FORMS.torg12, 1, {}).name).toBe('Сахар песок');
  });
});
