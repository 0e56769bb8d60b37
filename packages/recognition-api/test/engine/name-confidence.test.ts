import { describe, expect, it } from 'vitest';
import {
  AMBIGUOUS_NAME_CONFIDENCE,
  ambiguousName,
  doubtfulFieldWarnings,
  incompleteName,
  SUSPICIOUS_NAME_CONFIDENCE,
  suspiciousName,
} from '../../src/engine/confidence/doubtful-fields.js';
import type { RecognizedData } from '../../src/engine/engine.port.js';
import { FORMS } from '../../src/engine/extract/columns.js';
import { nameCellConfidence, rowToItem, vouchedNameWord, type FieldConfidence } from '../../src/engine/extract/items.js';
import { word } from './fixtures.js';

const nameRow = (text: string, conf = 96) => new Map([['1а', { words: text.split(' ').map((t, i) => word(t, 100 + 120 * i, 500, conf)), text }]]);

describe('item name confidence: what Tesseract leaves in a name it could not read', () => {
  it('flags junk glyphs, a bracket inside a word, mixed scripts inside a word and digits inside a word', () => {
    expect(suspiciousName('Штукатурка гипсовая Кпау{ Вофапа, 30 кг')).toBe(true);
    expect(suspiciousName('Герметик санитарный Сегез С$ 25')).toBe(true);
    expect(suspiciousName('Розетка АНаз)ез1ет')).toBe(true);
    expect(suspiciousName('ИБП АРС Back-UР5')).toBe(true);
    expect(suspiciousName('Рулон ИНлъату Т1ы')).toBe(true);
  });

  it('leaves names as catalogues print them', () => {
    for (const ok of [
      'Кабель NYM-J 3х1,5 мм²',
      'Маска медицинская (уп 50 шт)',
      'Пакет(ПНД) 30х40',
      'Болт М8*40 оцинкованный',
      'Шкурка шлифовальная #120',
      'Масло моторное 5W-40, 4 л',
      'Розетка двойная Schneider Electric AtlasDesign, белая',
      'Аккумулятор 6СТ-60 VL, 60 Ач',
      'Круг отрезной Ø 125х1,2х22,23 мм',
      'Точка доступа Wi-Fi 802.11ac',
      'Кран шаровый Ду15мм',
    ])
      expect(suspiciousName(ok), ok).toBe(false);
  });

  it('caps the field confidence of a flagged name although Tesseract was sure of every word', () => {
    const conf: FieldConfidence = {};
    rowToItem(nameRow('Герметик санитарный С$ 25'), FORMS.upd, 0, conf);
    expect(conf['items[0].name']).toBe(SUSPICIOUS_NAME_CONFIDENCE);
    rowToItem(nameRow('Герметик санитарный CS 25'), FORMS.upd, 1, conf);
    expect(conf['items[1].name']).toBeCloseTo(0.96);
  });

  it('warns once per flagged name, by the one doubtful-value mechanism, so the document confidence drops with it', () => {
    const conf: FieldConfidence = {};
    const items = ['Кпау{ Вофапа', 'Гипс строительный'].map((n, i) => rowToItem(nameRow(n), FORMS.upd, i, conf));
    const data = { document: { number: '12', date: null }, seller: {}, buyer: {}, items, totals: {} } as unknown as RecognizedData;
    const warnings = doubtfulFieldWarnings(data, { ...conf, 'document.number': 0.95 });
    expect(warnings.map((w) => w.field)).toEqual(['items[0].name']);
    expect(warnings[0].message).toMatch(/holds characters a printed name does not; check it against the page$/);
  });
});

describe('item names both reads agree on that may still be wrong', () => {
  it('caps a word of look-alike capitals and a zero-led number below the sure confidence', () => {
    expect(ambiguousName('Фильтр масляный МАММ W 712')).toBe(true); // MANN or МАММ: the glyphs read the same
    expect(ambiguousName('Газобетон 0600 625х250х300')).toBe(true); // D600 read with a zero
    expect(ambiguousName('Аккумулятор 6СТ-190 АЗ, 190 Ач')).toBe(true); // 6СТ or 6CT: the neighbours decide, a guess
    expect(ambiguousName('Фреон Р-407С, баллон 10 кг')).toBe(true);
    const conf: FieldConfidence = {};
    rowToItem(nameRow('Газобетон 0600 625х250х300', 97), FORMS.upd, 0, conf);
    expect(conf['items[0].name']).toBe(AMBIGUOUS_NAME_CONFIDENCE);
  });

  it('leaves short units, Russian words, codes with letters only one alphabet has, and decimals alone', () => {
    for (const ok of [
      'ИБП 750 ВА',
      'Бутылка ПЭТ 0,5 л',
      'Кабель ВВГнг 3х2,5 ГОСТ 31996',
      'Смазка 0,400 кг',
      'Болт 0 986 452 041',
      'Шина 205/55 R16 94T',
      'Коробка 600х400х400',
      'Бумага офисная А4',
      'Накопитель Kingston A400 480 ГБ',
      'Кабель КВВГ 4х1,5',
      'Сетка 5х5 мм, 1х50м',
    ])
      expect(ambiguousName(ok), ok).toBe(false);
  });
});

describe('item names a word is likely missing from', () => {
  it('caps a name that begins lower-case or ends with a preposition or an announced value', () => {
    expect(incompleteName('для документов А4 на 40 листов')).toBe(true);
    expect(incompleteName('для заметок с клеевым краем 76х76 мм')).toBe(true);
    expect(incompleteName('Комбинезон защитный одноразовый, размер')).toBe(true);
    expect(incompleteName('Набор отверток для')).toBe(true);
    expect(incompleteName('Кронштейн настенный с,')).toBe(true);
    const conf: FieldConfidence = {};
    rowToItem(nameRow('для заметок с клеевым краем 76х76 мм', 97), FORMS.upd, 0, conf);
    expect(conf['items[0].name']).toBe(AMBIGUOUS_NAME_CONFIDENCE);
  });

  it('leaves whole names alone, capitalised or ending with a figure, unit, code or word', () => {
    for (const ok of [
      'Блок для заметок 76х76 мм',
      'Комбинезон защитный, размер XL',
      'Кабель ВВГнг 3х2,5 ГОСТ 31996',
      'Папка-уголок А4',
      'Пленка ПВД 150 мкм, рукав',
    ])
      expect(incompleteName(ok), ok).toBe(false);
  });
});

describe('name cell confidence: words the name itself vouches for', () => {
  const cell = (...ws: [string, number][]) => ({ words: ws.map(([t, c], i) => word(t, 100 + 120 * i, 500, c)), text: ws.map(([t]) => t).join(' ') });

  it('vouches for a unit right after a number, a б/у-like abbreviation and the diameter sign before a size', () => {
    expect(vouchedNameWord('г', '250')).toBe(true);
    expect(vouchedNameWord('КГ,', '2')).toBe(true);
    expect(vouchedNameWord('л', '5,0')).toBe(true);
    expect(vouchedNameWord('Ач,', '75')).toBe(true);
    expect(vouchedNameWord('м2', '12')).toBe(true);
    expect(vouchedNameWord('6/y,')).toBe(true);
    expect(vouchedNameWord('r/m?')).toBe(true);
    expect(vouchedNameWord('©', 'Труба', '32')).toBe(true);
  });

  it('does not vouch for a unit without its number, an unknown abbreviation, a sign before a word, or a word', () => {
    expect(vouchedNameWord('г', 'Пакет')).toBe(false);
    expect(vouchedNameWord('б/т')).toBe(false);
    expect(vouchedNameWord('©', 'Труба', 'белая')).toBe(false);
    expect(vouchedNameWord('Гвоздь', '100')).toBe(false);
    expect(vouchedNameWord('Аи', '75')).toBe(false);
    // A bare length unit may have lost its superscript (мм for мм²).
    expect(vouchedNameWord('мм', '2х0,75')).toBe(false);
    expect(vouchedNameWord('ммх', '30', '40')).toBe(false);
  });

  it('lets a vouched unit count at 0.90, never a unit scored so low that ink beside it went unread', () => {
    expect(nameCellConfidence(cell(['Сахар', 97], ['250', 95], ['г', 68]))).toBe(0.9);
    // A unit scored 54: ink beside it (a superscript) probably went unread, the name stays doubtful.
    expect(nameCellConfidence(cell(['Сахар', 97], ['2,5', 93], ['КГ', 54]))).toBe(0.54);
    // A short number before a vouched unit counts with it when scored fairly; a number scored low still decides.
    expect(nameCellConfidence(cell(['Сахар', 97], ['250', 71], ['г', 68]))).toBe(0.9);
    expect(nameCellConfidence(cell(['Сахар', 97], ['250', 64], ['г', 68]))).toBe(0.64);
    // … and not before a unit that is not vouched for, nor a long number.
    expect(nameCellConfidence(cell(['Лента', 97], ['25', 75], ['мм', 88]))).toBe(0.75);
    expect(nameCellConfidence(cell(['Код', 97], ['4607001', 75], ['г', 88]))).toBe(0.75);
    expect(nameCellConfidence(undefined)).toBe(0);
  });
});
