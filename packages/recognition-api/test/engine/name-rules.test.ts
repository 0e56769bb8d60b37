import { describe, expect, it } from 'vitest';
import { cleanName } from '../../src/engine/extract/items.js';
import { applyNameRules } from '../../src/engine/extract/name-rules.js';

describe('name rules that standards and print conventions make certain', () => {
  it('reads the figures of IP, PN and DN designations back from the letters a photo puts for them', () => {
    expect(applyNameRules('Светильник уличный 30 Вт IP6S')).toBe('Светильник уличный 30 Вт IP65');
    expect(applyNameRules('Кран шаровой DN2O PN4O, латунь')).toBe('Кран шаровой DN20 PN40, латунь');
    expect(applyNameRules('Труба напорная PN1S Ø 32 мм')).toBe('Труба напорная PN15 Ø 32 мм');
    // An IP code's X stays, and so do letters of codes that are not designations.
    expect(applyNameRules('Розетка накладная IPX4, серая')).toBe('Розетка накладная IPX4, серая');
    expect(applyNameRules('Картридж Samsung MLT-D111S')).toBe('Картридж Samsung MLT-D111S');
    expect(applyNameRules('Фонарь IP5S-OK')).toBe('Фонарь IP5S-OK');
  });

  it('reads б/т and a slashless бт as б/г, and leaves б/у, б/н and words with бт inside', () => {
    expect(applyNameRules('Хек мороженый б/т, 2 сорт')).toBe('Хек мороженый б/г, 2 сорт');
    expect(applyNameRules('Треска мороженая бт 1 сорт')).toBe('Треска мороженая б/г 1 сорт');
    expect(applyNameRules('Станок б/у, (бт)')).toBe('Станок б/у, (б/г)');
    expect(applyNameRules('Счёт б/н, обтирочный')).toBe('Счёт б/н, обтирочный');
  });

  it("turns an abbreviation's comma into its point, not a unit's comma after a number", () => {
    expect(applyNameRules('Кабель витая пара кат, 6 UTP')).toBe('Кабель витая пара кат. 6 UTP');
    expect(applyNameRules('Перчатки нитриловые (уп, 100 шт.)')).toBe('Перчатки нитриловые (уп. 100 шт.)');
    expect(applyNameRules('Пакет фасовочный 10 уп, синий')).toBe('Пакет фасовочный 10 уп, синий');
    expect(applyNameRules('Модуль ламповый, 6 штук')).toBe('Модуль ламповый, 6 штук');
  });

  it('reads a non-unit after a three-dimension size as мм, and keeps the units and a two-dimension size', () => {
    expect(applyNameRules('Плита OSB-3 2500х1250х12 зам')).toBe('Плита OSB-3 2500х1250х12 мм');
    expect(applyNameRules('Брус 50х100х6000 ам, сосна')).toBe('Брус 50х100х6000 мм, сосна');
    expect(applyNameRules('Ящик 60х40х30 см')).toBe('Ящик 60х40х30 см');
    expect(applyNameRules('Рулон 1х50 зам')).toBe('Рулон 1х50 зам');
  });

  it('reads a к glued between two figures as the multiplication sign, and leaves кг and К after a number', () => {
    expect(applyNameRules('Сетка кладочная 5к5 мм')).toBe('Сетка кладочная 5х5 мм');
    expect(applyNameRules('Мешок 5 кг, лампа 4000К')).toBe('Мешок 5 кг, лампа 4000К');
  });

  it('is applied by cleanName', () => {
    expect(cleanName('Прожектор 50 Вт IP6S')).toBe('Прожектор 50 Вт IP65');
    expect(cleanName('Скумбрия мороженая бт, 1 сорт')).toBe('Скумбрия мороженая б/г, 1 сорт');
  });
});

describe('name rules: the pack note', () => {
  it('reads the blurred шт and уп. of a pack note, and leaves real units and words', () => {
    expect(applyNameRules('Салфетки бумажные (уп. 100 ип.)')).toBe('Салфетки бумажные (уп. 100 шт.)');
    expect(applyNameRules('Бахилы (ул. 50 цл.)')).toBe('Бахилы (уп. 50 шт.)');
    expect(applyNameRules('Ампулы (уп. 10 шт)')).toBe('Ампулы (уп. 10 шт)');
    expect(applyNameRules('Проволока 2 ил')).toBe('Проволока 2 ил');
    expect(applyNameRules('Табличка (ул. Ленина)')).toBe('Табличка (ул. Ленина)');
  });
});
