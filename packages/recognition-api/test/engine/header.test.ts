import { describe, expect, it } from 'vitest';
import { parsePartyWords, partyLine } from '../../src/engine/extract/header-torg12.js';
import { groupLines } from '../../src/engine/extract/words.js';
import { row } from './fixtures.js';

describe('TORG-12 party lines', () => {
  it('reads "name, ИНН, КПП, address" after the caption, cutting bank details', () => {
    const lines = groupLines(row(300, [[100, 'Поставщик'], [400, 'ООО «Агроснаб», ИНН 7714280050, КПП 771401001, 125040, г. Москва, ул. Пушкина, д. 107, р/с 40702810']]));
    const party = parsePartyWords(partyLine(lines, [/^Поставщик:?$/i]), 'seller', {});
    expect(party).toEqual({ name: 'ООО «Агроснаб»', inn: '7714280050', kpp: '771401001', address: '125040, г. Москва, ул. Пушкина, д. 107' });
  });

  it('takes name and INN from the line above the caption when 1C wraps them there', () => {
    const lines = groupLines([
      ...row(250, [[400, 'ООО "Золотая антилопа", ИНН 1111111, 117587, Москва г, р/с 4070']]),
      ...row(300, [[100, 'Поставщик'], [400, '1111111111, в банке ЗАО "Утиные истории"']]),
    ]);
    const party = parsePartyWords(partyLine(lines, [/^Поставщик:?$/i]), 'seller', {});
    // A 7-digit INN is returned as printed; validation reports its length.
    expect(party).toEqual({ name: 'ООО "Золотая антилопа"', inn: '1111111', kpp: null, address: '117587, Москва г' });
  });
});
