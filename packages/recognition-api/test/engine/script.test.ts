import { describe, expect, it } from 'vitest';
import { resolveLookalikes } from '../../src/engine/extract/script.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const latin = (s: string) => /^[\x00-\x7f]*$/.test(s);

describe('Latin/Cyrillic look-alike resolution per token', () => {
  it.each([
    ['Картридж НР CF283А', 'Картридж HP CF283A'], // "CF283А": F proves Latin; НР follows its Latin neighbour
    ['Лампа LЕD А60 Е27', 'Лампа LED A60 E27'], // L proves Latin; A60 and E27 are codes in a phrase with Latin
    ['Шина R16 94Т', 'Шина R16 94T'],
    ['Кофе Arabiса 1 кг', 'Кофе Arabica 1 кг'], // r, b, i prove Latin
    ['Мaсло мотoрное', 'Масло моторное'], // Latin a, o inside Cyrillic words
    ['Цемент М500 мешок 50 кг', 'Цемент М500 мешок 50 кг'], // a grade code among Cyrillic words stays Cyrillic
    ['Бумага офисная А4 500 листов', 'Бумага офисная А4 500 листов'],
    ['Кабель ВВГнг 3х2,5', 'Кабель ВВГнг 3х2,5'],
    ['Масло моторное 5W-40', 'Масло моторное 5W-40'],
    ['Саморез no дереву 3,5x35', 'Саморез по дереву 3,5х35'], // eng's "no" for "по": weak n, Cyrillic neighbours
    ['Ручка шариковая Erich Krause', 'Ручка шариковая Erich Krause'], // weak r, u beside strong E/i/K/s stay Latin
    // A unit glued to its number is Cyrillic even in a phrase with Latin ("E27" made Latin, "4000K" not).
    ['Лампа светодиодная Gauss 10 Вт 4000K E27', 'Лампа светодиодная Gauss 10 Вт 4000К E27'],
    ['Стабилизатор Resanta 220B, 10А', 'Стабилизатор Resanta 220В, 10А'],
    // A brand of look-alikes only goes with the model code beside it once that code is Latin.
    ['Телефон ТЕХЕТ ТМ-В226, Bluetooth', 'Телефон TEXET TM-B226, Bluetooth'],
    // An O between an article's letters and its zeros is a zero; an O before other digits stays a letter.
    ['Выключатель Legrand Valena LGRO00771, белый', 'Выключатель Legrand Valena LGR000771, белый'],
    ['Мультиметр UNI-T PRO100', 'Мультиметр UNI-T PRO100'],
  ])('%s → %s', (read, want) => {
    expect(resolveLookalikes(read)).toBe(want);
  });

  it('a phrase of look-alikes and a model code only is Latin ("НР СЕ283А" of the rus model)', () => {
    const out = resolveLookalikes('НР СЕ283А');
    expect(out).toBe('HP CE283A');
    expect(latin(out)).toBe(true);
  });

  it('keeps digits, punctuation, spacing and script-only letters untouched', () => {
    expect(resolveLookalikes('«Ромашка», 10/20 шт.  №5')).toBe('«Ромашка», 10/20 шт.  №5');
    expect(resolveLookalikes('')).toBe('');
  });
});

describe('rus+eng spellings of fixed vocabularies', () => {
  it('column labels: "la", "Ia" → "1а", "1b" → "1б"; unit names: "wt" → "шт", "kr" → "кг", a lone "n" → "л"', async () => {
    const { normalizeLabel } = await import('../../src/engine/extract/columns.js');
    expect(['la', 'Ia', '1b', '10a', 'A', '16'].map(normalizeLabel)).toEqual(['1а', '1а', '1б', '10а', 'А', '1б']);
    const { rowToItem } = await import('../../src/engine/extract/items.js');
    const { FORMS } = await import('../../src/engine/extract/columns.js');
    const unit = (name: string) => rowToItem(new Map([['2а', { words: [], text: name }]]), FORMS.upd, 0, {}).unit.name;
    expect(['wt', 'kr', 'n', 'ynak', 'шт'].map(unit)).toEqual(['шт', 'кг', 'л', 'упак', 'шт']);
  });
});

describe('typography that holds in either script', () => {
  it('prints a multiplication sign between digits as the Cyrillic х, also beside a Latin brand', () => {
    expect(resolveLookalikes('Кабель NYM-J 3x1,5 мм²')).toBe('Кабель NYM-J 3х1,5 мм²');
    expect(resolveLookalikes('Монитор 24" Philips 1920x1080')).toBe('Монитор 24" Philips 1920х1080');
    expect(resolveLookalikes('ИБП APC BX750MI')).toBe('ИБП APC BX750MI');
  });

  it('writes the Celsius sign after a degree as the Latin C', () => {
    expect(resolveLookalikes('Хранение при -18 °С')).toBe('Хранение при -18 °C');
    expect(resolveLookalikes('Эмаль до +600 °C')).toBe('Эмаль до +600 °C');
  });
});

describe('units after a number', () => {
  it('keeps a short look-alike unit after a number Cyrillic beside Latin brands', () => {
    expect(resolveLookalikes('ИБП APC Back-UPS BX750MI-GR, 750 BA')).toBe('ИБП APC Back-UPS BX750MI-GR, 750 ВА');
    expect(resolveLookalikes('Блок питания Mean Well 12 B')).toBe('Блок питания Mean Well 12 В');
  });
});
