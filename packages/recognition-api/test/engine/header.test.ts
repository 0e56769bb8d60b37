import { describe, expect, it } from 'vitest';
import { extractTorg12Header, parsePartyWords, partyLine } from '../../src/engine/extract/header-torg12.js';
import { extractUpdHeader, splitInnKpp } from '../../src/engine/extract/header-upd.js';
import { groupLines } from '../../src/engine/extract/words.js';
import { row } from './fixtures.js';

describe('TORG-12 party lines', () => {
  it('reads "name, ИНН, КПП, address" after the caption, cutting bank details', () => {
    const lines = groupLines(
      row(300, [
        [100, 'Поставщик'],
        [400, 'ООО «Агроснаб», ИНН 7714280050, КПП 771401001, 125040, г. Москва, ул. Пушкина, д. 107, р/с 40702810'],
      ]),
    );
    const party = parsePartyWords(partyLine(lines, [/^Поставщик:?$/i]), 'seller', {});
    expect(party).toEqual({ name: 'ООО «Агроснаб»', inn: '7714280050', kpp: '771401001', address: '125040, г. Москва, ул. Пушкина, д. 107' });
  });

  it('takes name and INN from the line above the caption when 1C wraps them there', () => {
    const lines = groupLines([
      ...row(250, [[400, 'ООО "Золотая антилопа", ИНН 1111111, 117587, Москва г, р/с 4070']]),
      ...row(300, [
        [100, 'Поставщик'],
        [400, '1111111111, в банке ЗАО "Утиные истории"'],
      ]),
    ]);
    const party = parsePartyWords(partyLine(lines, [/^Поставщик:?$/i]), 'seller', {});
    // A 7-digit INN is returned as printed; validation reports its length.
    expect(party).toEqual({ name: 'ООО "Золотая антилопа"', inn: '1111111', kpp: null, address: '117587, Москва г' });
  });
});

describe('document dates printed in words', () => {
  const updHeader = (dateText: string) =>
    groupLines([
      ...row(200, [
        [100, 'Счёт-фактура № 512 от'],
        [560, dateText],
        [1500, '(1)'],
      ]),
      ...row(260, [
        [100, 'Продавец:'],
        [400, 'ООО «Север»'],
        [1500, '(2)'],
      ]),
    ]);

  it.each([
    ['«12» марта 2026 г.', '12.03.2026'],
    ['"7" мая 2025', '07.05.2025'],
    ['12 март 2026', '12.03.2026'],
    ['«12 » марта 2026 г.', '12.03.2026'],
    ['05.02.2026', '05.02.2026'],
  ])('UPD/invoice line (1) "от %s" → %s, number kept', (dateText, want) => {
    const conf: Record<string, number> = {};
    const h = extractUpdHeader(updHeader(dateText), conf);
    expect(h.number).toBe('512');
    expect(h.date).toBe(want);
    expect(conf['document.date']).toBeGreaterThan(0.9);
  });

  it('TORG-12 number box with the date in words under "Дата составления"', () => {
    const lines = groupLines([
      ...row(200, [
        [1800, 'Номер документа'],
        [2300, 'Дата составления'],
      ]),
      ...row(250, [
        [900, 'ТОВАРНАЯ НАКЛАДНАЯ'],
        [1850, 'УТ-00412'],
        [2250, '«3» апреля 2026 г.'],
      ]),
    ]);
    const h = extractTorg12Header(lines, {});
    expect(h.number).toBe('УТ-00412');
    expect(h.date).toBe('03.04.2026');
  });
});

describe('document number prefixes read by rus+eng', () => {
  it('look-alike Latin capitals before "-digits" are the Cyrillic 1C prefix; a Latin-only prefix stays', async () => {
    const { fixNumberPrefix } = await import('../../src/engine/extract/header-torg12.js');
    expect(fixNumberPrefix('PH-00412')).toBe('РН-00412');
    expect(fixNumberPrefix('YT,03828')).toBe('УТ-03828');
    expect(fixNumberPrefix('ЦБ-00017')).toBe('ЦБ-00017');
    expect(fixNumberPrefix('INV-7')).toBe('INV-7');
    expect(fixNumberPrefix('5881')).toBe('5881');
  });
});

describe('UPD INN/KPP pair read from a photo', () => {
  it('splits a pair whose slash was read as a digit or lost, by the INN check digits', () => {
    expect(splitInnKpp('6164062127/616401001')).toEqual(['6164062127', '616401001']);
    expect(splitInnKpp('61640621271616401001')).toEqual(['6164062127', '616401001']);
    expect(splitInnKpp('6164062127616401001')).toEqual(['6164062127', '616401001']);
    expect(splitInnKpp('7707083893')).toEqual(['7707083893', undefined]);
  });
});
