import { describe, expect, it } from 'vitest';
import type { Party } from '../../src/engine/engine.port.js';
import { TWIN_NAME_CONFIDENCE } from '../../src/engine/extract/header-torg12.js';
import { DISPUTED_NAME_CONFIDENCE, footerParties, settleWithFooter } from '../../src/engine/extract/upd-footer.js';
import { groupLines } from '../../src/engine/extract/words.js';
import { row, word } from './fixtures.js';

// The foot of a UPD's transfer part as a photo reads it: caption [14] left and [19] right, the values below them
// ("ИНН/КПП" garbled to "ИННИЖГП", the comma after the name read as a point).
const foot = (seller: string, sellerIds: string, buyer: string, buyerIds: string) =>
  groupLines([
    ...row(2200, [
      [130, 'Наименование экономического субъекта – составителя документа'],
      [1800, 'Наименование экономического субъекта – составителя документа'],
    ]),
    ...row(2260, [
      [130, seller],
      [700, sellerIds],
      [1680, '[14]'],
      [1810, buyer],
      [2400, buyerIds],
      [3350, '[19]'],
    ]),
  ]);
const party = (over: Partial<Party> = {}): Party => ({ name: 'ООО «Вектор»', inn: '7707083893', kpp: '770701001', address: null, ...over });

describe('UPD parties settled with their second print at the foot', () => {
  const lines = foot('ООО «Вектор».', 'ИННИЖГП 7707083893/770701001', 'ИП Гончаров Илья Олегович,', 'ИНН 500100732259');

  it('reads the seller on the left and the buyer on the right of the caption', () => {
    const { seller, buyer } = footerParties([lines]);
    expect(seller).toMatchObject({ name: 'ООО «Вектор»', inn: '7707083893', kpp: '770701001' });
    expect(buyer).toMatchObject({ name: 'ИП Гончаров Илья Олегович', inn: '500100732259', kpp: null });
    expect(footerParties([groupLines(row(100, [[100, 'Счёт-фактура № 5 от 01.02.2026']]))])).toEqual({});
  });

  it('raises a name read the same twice, and fills what the header lost', () => {
    const { seller, buyer } = footerParties([lines]);
    const conf: Record<string, number> = { 'seller.name': 0.6 };
    expect(settleWithFooter(party(), seller, 'seller', conf).name).toBe('ООО «Вектор»');
    expect(conf['seller.name']).toBe(TWIN_NAME_CONFIDENCE);
    const lost = settleWithFooter({ name: null, inn: null, kpp: null, address: null }, buyer, 'buyer', conf);
    expect(lost).toMatchObject({ name: 'ИП Гончаров Илья Олегович', inn: '500100732259' });
    expect(conf['buyer.name']).toBeLessThanOrEqual(DISPUTED_NAME_CONFIDENCE);
  });

  it('takes the INN whose check digits hold, and word by word the better-scored reading of a disputed name', () => {
    const [a, b] = [word('«Вектор».', 0, 0, 93), word('«Векгор»', 0, 0, 20)];
    const { seller } = footerParties([lines]);
    const conf: Record<string, number> = { 'seller.name': b.conf / 100, 'seller.inn': 0.4 };
    const settled = settleWithFooter(
      party({ name: 'ООО «Векгор»', inn: '7707083898' }),
      { ...seller!, nameWords: [word('ООО', 0, 0, 95), a] },
      'seller',
      conf,
    );
    expect(settled.name).toBe('ООО «Вектор»');
    expect(settled.inn).toBe('7707083893');
    expect(conf['seller.name']).toBeLessThanOrEqual(DISPUTED_NAME_CONFIDENCE); // two readings disagreed
  });

  it('leaves the header alone when the foot names another organisation (a commission agent)', () => {
    const agent = footerParties([foot('АО «Торговый дом Альфа»', 'ИНН/КПП 7707083893/770701001', 'ИП Гончаров', '')]).seller;
    const conf: Record<string, number> = {};
    expect(settleWithFooter(party({ inn: null }), agent, 'seller', conf)).toEqual(party({ inn: null }));
  });
});
