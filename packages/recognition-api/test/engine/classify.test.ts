import { describe, expect, it } from 'vitest';
import { classifyDocument } from '../../src/engine/extract/classify.js';

describe('document type classification', () => {
  it('prefers UPD markers over the "Счёт-фактура" line every UPD prints', () => {
    expect(classifyDocument('Универсальный Счёт-фактура № 12 от 01.02.2026\nпередаточный документ Статус: 1')).toBe('upd');
  });

  it('recognises a TORG-12 by form name, title or OKUD code', () => {
    expect(classifyDocument('Унифицированная форма № ТОРГ-12')).toBe('torg12');
    expect(classifyDocument('ТОВАРНАЯ НАКЛАДНАЯ Номер документа')).toBe('torg12');
    expect(classifyDocument('Форма по ОКУД 0330212')).toBe('torg12');
  });

  it('recognises an invoice by "счёт-фактура" alone, OCR spelling included', () => {
    expect(classifyDocument('Приложение № 1 к постановлению № 1137\nСЧЁТ-ФАКТУРА № 5 от 01.02.2025')).toBe('invoice');
    expect(classifyDocument('Счет—фактура № 5 от 01.02.2025')).toBe('invoice');
  });

  it('returns null for unrelated text', () => {
    expect(classifyDocument('Договор поставки № 7')).toBeNull();
  });
});
