import { describe, expect, it } from 'vitest';
import type { EngineWarning } from '../../src/engine/engine.port.js';
import { FORMS } from '../../src/engine/extract/columns.js';
import { nameWarnings, rowToItem, SUSPICIOUS_NAME_CONFIDENCE, suspiciousName, type FieldConfidence } from '../../src/engine/extract/items.js';
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

  it('warns once per flagged name, so the document confidence drops with it', () => {
    const warnings: EngineWarning[] = [];
    const conf: FieldConfidence = {};
    const items = ['Кпау{ Вофапа', 'Гипс строительный'].map((n, i) => rowToItem(nameRow(n), FORMS.upd, i, conf));
    nameWarnings(items, warnings);
    expect(warnings.map((w) => w.field)).toEqual(['items[0].name']);
  });
});
