import { describe, expect, it } from 'vitest';
import { classifyByColumns, classifyDocument, detectCorrection, detectDocumentType } from '../../src/engine/extract/classify.js';
import { FORMS } from '../../src/engine/extract/columns.js';
import { groupLines } from '../../src/engine/extract/words.js';
import { row } from './fixtures.js';

/** A header line and the column-number row of a form, as word boxes (labels 150 px apart). */
function page(title: string, labels: string[]) {
  return groupLines([
    ...row(100, [[200, title]]),
    ...row(300, [
      [200, 'Продавец:'],
      [500, 'ООО «Север»'],
    ]),
    ...row(
      800,
      labels.map((l, i) => [300 + 150 * i, l] as [number, string]),
    ),
  ]);
}

describe('document type classification', () => {
  it('prefers UPD markers over the "Счёт-фактура" line every UPD prints', () => {
    expect(classifyDocument('Универсальный Счёт-фактура № 12 от 01.02.2026\nпередаточный документ Статус: 1')).toBe('upd');
  });

  it('the "Статус" box alone makes a UPD when the title is unreadable', () => {
    expect(classifyDocument('Унив3рсальный п3р3даточный\nСтатус: 1 Счёт-фактура № 12 от 01.02.2026')).toBe('upd');
  });

  it('recognises a TORG-12 by form name, title or OKUD code', () => {
    expect(classifyDocument('Унифицированная форма № ТОРГ-12')).toBe('torg12');
    expect(classifyDocument('ТОВАРНАЯ НАКЛАДНАЯ Номер документа')).toBe('torg12');
    expect(classifyDocument('Форма по ОКУД 0330212')).toBe('torg12');
  });

  it('recognises an invoice by "счёт-фактура" alone, OCR spelling (Latin twins) included', () => {
    expect(classifyDocument('Приложение № 1 к постановлению № 1137\nСЧЁТ-ФАКТУРА № 5 от 01.02.2025')).toBe('invoice');
    expect(classifyDocument('Счет—фактура № 5 от 01.02.2025')).toBe('invoice');
    expect(classifyDocument('Cчeт-фaктypa № 5 от 01.02.2025')).toBe('invoice');
  });

  it('an invoice whose shipping line says "Документ об отгрузке" is still an invoice', () => {
    expect(classifyDocument('Счёт-фактура № 5 от 01.02.2025\nДокумент об отгрузке № п/п 1-3 № 5 от 01.02.2025')).toBe('invoice');
  });

  it('returns null for unrelated text', () => {
    expect(classifyDocument('Договор поставки № 7')).toBeNull();
  });
});

describe('classification by the column-number row (word fixtures)', () => {
  it('an invoice row (1, 1а … 11) is an invoice, not a UPD, although the UPD row contains it', () => {
    const lines = page('Документ № 5 от 01.02.2025', FORMS.invoice.labels);
    expect(classifyByColumns(lines)).toBe('invoice');
    expect(detectDocumentType(lines)).toBe('invoice');
  });

  it('a UPD row with its column "А" is a UPD', () => {
    const lines = page('Документ № 5 от 01.02.2025', FORMS.upd.labels);
    expect(classifyByColumns(lines)).toBe('upd');
  });

  it('a счёт-фактура page without UPD markers is an invoice; with the status box it is a UPD', () => {
    expect(detectDocumentType(page('Счёт-фактура № 5 от 01.02.2025', FORMS.invoice.labels))).toBe('invoice');
    expect(detectDocumentType(page('Статус: 1 Счёт-фактура № 5 от 01.02.2025', FORMS.upd.labels))).toBe('upd');
  });

  it('a счёт-фактура whose line (5а) cites a UPD as the shipping document stays an invoice', () => {
    const lines = groupLines([
      ...row(100, [[1500, 'Приложение № 1 к постановлению Правительства Российской Федерации от 26 декабря 2011 г. № 1137']]),
      ...row(160, [
        [600, 'Счет-фактура № 318 от 14 июля 2025 г.'],
        [3000, '(1)'],
      ]),
      ...row(220, [
        [600, 'Исправление № -- от --'],
        [3000, '(1а)'],
      ]),
      ...row(280, [
        [600, 'Продавец:'],
        [1500, 'ООО «Кедр»'],
        [3000, '(2)'],
      ]),
      ...row(340, [
        [600, 'Документ об отгрузке'],
        [1500, '№ п/п 1-4 Универсальный передаточный документ № 318 от 14.07.2025'],
        [3000, '(5а)'],
      ]),
      ...row(400, [
        [600, 'Документ об отгрузке'],
        [1500, '№ п/п 5 УПД № 319 от 14.07.2025'],
        [3000, '(5а)'],
      ]),
      ...row(
        800,
        FORMS.invoice.labels.map((l, i) => [300 + 150 * i, l] as [number, string]),
      ),
    ]);
    expect(detectDocumentType(lines)).toBe('invoice');
  });

  it('the transfer part ("Основание передачи", "Товар (груз) передал") makes a UPD when title and status are unread', () => {
    expect(classifyDocument('Счёт-фактура № 5 от 01.02.2025\nОснование передачи (сдачи) / получения (приемки) Договор № 4 [8]')).toBe('upd');
    expect(classifyDocument('Счёт-фактура № 5 от 01.02.2025\nТовар (груз) передал / услуги, результаты работ, права сдал [10]')).toBe('upd');
  });

  it('a UPD row whose "А" is misread still has 16 cells and stays a UPD', () => {
    expect(classifyByColumns(page('Документ № 5', ['Д', ...FORMS.upd.labels.slice(1)]))).toBe('upd');
  });

  it('a TORG-12 row (1 … 15) is a TORG-12', () => {
    expect(classifyByColumns(page('Накладная', FORMS.torg12.labels))).toBe('torg12');
  });
});

describe('corrected documents', () => {
  const lines = (...texts: string[]) => groupLines(texts.flatMap((t, i) => row(100 + 60 * i, [[200, t]])));

  it('a corrective document (УКД, корректировочный счёт-фактура) is recognised as such', () => {
    expect(detectCorrection(lines('Универсальный корректировочный документ', 'Корректировочный счет-фактура № 14 от 20.03.2026'))).toEqual({
      kind: 'corrective',
    });
  });

  it('a revision has line 1а filled; line 1а printed empty is a plain document', () => {
    expect(detectCorrection(lines('Счет-фактура № 512 от 02.03.2026 (1)', 'Исправление № 2 от 17.03.2026 (1а)'))).toEqual({
      kind: 'revision',
      number: '2',
    });
    expect(detectCorrection(lines('Счет-фактура № 512 от 02.03.2026 (1)', 'Исправление № -- от -- (1а)'))).toBeNull();
    expect(detectCorrection(lines('Счет-фактура № 512 от 02.03.2026 (1)', 'Исправление № — от — (1а)'))).toBeNull();
  });
});
