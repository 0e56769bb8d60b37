import { describe, expect, it } from 'vitest';
import { cleanName } from '../../src/engine/extract/items.js';

describe('item name cleaning: photo OCR classes of error', () => {
  it('turns a decimal point between digits into the Russian decimal comma', () => {
    expect(cleanName('Саморез по дереву 3.5х35')).toBe('Саморез по дереву 3,5х35');
    expect(cleanName('Кабель ВВГнг 3х2.5')).toBe('Кабель ВВГнг 3х2,5');
    expect(cleanName('Молоко пастеризованное 3.2%')).toBe('Молоко пастеризованное 3,2%');
  });

  it('keeps dates, version-like numbers and Latin-only names as read', () => {
    expect(cleanName('Услуги по договору от 01.02.2026')).toBe('Услуги по договору от 01.02.2026');
    expect(cleanName('Кабель USB 3.0.1')).toBe('Кабель USB 3.0.1');
    expect(cleanName('HP CF283A 1.5')).toBe('HP CF283A 1.5');
  });

  it('reads a Latin W that the rus model split into slashes or "М/"', () => {
    expect(cleanName('Масло моторное 5\\/-40')).toBe('Масло моторное 5W-40');
    expect(cleanName('Масло моторное 5М/-40')).toBe('Масло моторное 5W-40');
    expect(cleanName('Масло моторное 5\\М/-40')).toBe('Масло моторное 5W-40');
  });

  it('drops an opening quote that has no closing one, keeps a quoted name', () => {
    expect(cleanName('“Мука пшеничная высший сорт')).toBe('Мука пшеничная высший сорт');
    expect(cleanName('«Мука» высший сорт')).toBe('«Мука» высший сорт');
  });

  it('restores a first capital read as its lower-case twin', () => {
    expect(cleanName('картридж лазерный черный')).toBe('Картридж лазерный черный');
    expect(cleanName('чай черный листовой 100 г')).toBe('Чай черный листовой 100 г');
    expect(cleanName('аптечка')).toBe('аптечка');
  });
});
