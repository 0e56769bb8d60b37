import { describe, expect, it } from 'vitest';
import { isMendedDate, monthNumber, normalizeDate, parseDate, parseWordDate } from '../../src/engine/extract/dates.js';
import { capMendedDate } from '../../src/engine/extract/header.js';

describe('dates in words (Russian month names in every case, quote styles, OCR noise)', () => {
  const months = ['январ', 'феврал', 'сентябр', 'октябр', 'ноябр', 'декабр'];
  it.each(months.map((stem, i) => [stem, [1, 2, 9, 10, 11, 12][i]] as [string, number]))('%s… in all six cases → month %d', (stem, n) => {
    for (const ending of ['ь', 'я', 'ю', 'ем', 'ём', 'е']) expect(monthNumber(stem + ending)).toBe(n);
  });

  it('март, август (consonant stems), апрель, май, июнь, июль in all cases', () => {
    for (const w of ['март', 'марта', 'марту', 'мартом', 'марте']) expect(monthNumber(w)).toBe(3);
    for (const w of ['август', 'августа', 'августу', 'августом', 'августе']) expect(monthNumber(w)).toBe(8);
    for (const w of ['апрель', 'апреля', 'апрелю', 'апрелем', 'апреле']) expect(monthNumber(w)).toBe(4);
    for (const w of ['май', 'мая', 'маю', 'маем', 'мае']) expect(monthNumber(w)).toBe(5);
    for (const w of ['июнь', 'июня', 'июнем']) expect(monthNumber(w)).toBe(6);
    for (const w of ['июль', 'июля', 'июле']) expect(monthNumber(w)).toBe(7);
  });

  it('capitals, a trailing comma and OCR Latin twins in the month name', () => {
    expect(monthNumber('МАРТА')).toBe(3);
    expect(monthNumber('марта,')).toBe(3);
    expect(monthNumber('мapтa')).toBe(3); // Latin a and p
  });

  it('rejects words that only look like months', () => {
    for (const w of ['марка', 'майка', 'маска', 'июнька', 'мы', 'маршрут']) expect(monthNumber(w)).toBeNull();
  });

  it.each([
    ['12 марта 2026 г.', '12.03.2026'],
    ['«12» марта 2026 г.', '12.03.2026'],
    ['"12" марта 2026', '12.03.2026'],
    ['“5” мая 2025 года', '05.05.2025'],
    ['12 март 2026', '12.03.2026'],
    ['«12 » марта 2026 г.', '12.03.2026'],
    ['« 3» января 2026г.', '03.01.2026'],
    ['<<28>> февраля 2025 г.', '28.02.2025'],
    ['от «1» декабря 2025 г.', '01.12.2025'],
    ['1 СЕНТЯБРЯ 2025', '01.09.2025'],
  ])('%s → %s', (text, want) => {
    expect(parseWordDate(text)).toBe(want);
    expect(parseDate(text)).toBe(want);
  });

  it('null for an impossible day, a missing year or a non-month word', () => {
    expect(parseWordDate('32 марта 2026')).toBeNull();
    expect(parseWordDate('12 марта')).toBeNull();
    expect(parseWordDate('12 штук 2026')).toBeNull();
  });

  it('numeric dates keep working and win when both forms are present', () => {
    expect(normalizeDate('2.3.2026')).toBe('02.03.2026');
    expect(parseDate('02,03.2026')).toBe('02.03.2026');
    expect(parseDate('01.02.2026 (1 февраля 2026)')).toBe('01.02.2026');
  });

  it('mends a day or month no calendar has by the only look-alike digit that makes the date exist', () => {
    expect(normalizeDate('14.93.2026')).toBe('14.03.2026'); // a blurred 0 read as 9
    expect(normalizeDate('38.11.2026')).toBe('30.11.2026'); // 8 for a 0 (88 and 33 are no days)
    expect(normalizeDate('21.17.2026')).toBe('21.11.2026'); // 7 for 1
    // None or several valid readings: the date stays as read, for validation to report.
    expect(normalizeDate('45.13.2026')).toBe('45.13.2026');
    expect(normalizeDate('00.05.2026')).toBe('00.05.2026'); // 06, 08, 09: no one of them is evidence
    expect(normalizeDate('12.03.2026')).toBe('12.03.2026');
  });

  it('reports a mended date, whose confidence is then at most 0.5 however sure its digits were', () => {
    expect(isMendedDate('14.93.2026')).toBe(true);
    expect(isMendedDate('14.03.2026')).toBe(false);
    expect(isMendedDate('45.13.2026')).toBe(false); // not mended: stays as read
    const conf: Record<string, number> = { 'document.date': 0.96 };
    capMendedDate(conf, '14.93.2026');
    expect(conf['document.date']).toBe(0.5);
    const sure: Record<string, number> = { 'document.date': 0.96 };
    capMendedDate(sure, '14.03.2026');
    expect(sure['document.date']).toBe(0.96);
  });
});
