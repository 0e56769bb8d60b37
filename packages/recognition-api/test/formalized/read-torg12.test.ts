import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { readFormalized, readFormalizedUpd } from '../../src/formalized/index.js';
import { refusal } from './helpers.js';
import { torg12Xml } from './torg12-xml.js';

const codeOf = (bytes: Buffer): string => refusal(readFormalized, bytes);

describe('readFormalized: the ТОРГ-12 seller title (DP_TOVTORGPR, КНД 1175010)', () => {
  it('reads number, date, seller and buyer (not consignor or consignee), lines and totals exactly', () => {
    const read = readFormalized(torg12Xml());
    expect(read).toMatchObject({ documentType: 'torg12', function: null, formatVersion: '5.01', knd: '1175010' });
    expect(read.fileId).toMatch(/^DP_TOVTORGPR_/);
    expect(read.data.document).toEqual({ number: 'ТН-0457', date: '20.11.2026' });
    expect(read.data.seller).toEqual({ name: 'ООО "Стройторг"', inn: '7701234567', kpp: '770101001', address: '101000, Москва, Мясницкая, 1' });
    expect(read.data.buyer).toEqual({ name: 'ИП Петров Пётр Петрович', inn: '500100732259', kpp: null, address: 'г. Тверь, ул. Советская, д. 5' });
    expect(read.data.items).toEqual([
      {
        number: 1,
        name: 'Цемент М500 мешок 50 кг',
        product_code: 'ЦМ-500',
        unit: { code: '796', name: 'шт' },
        quantity: 10,
        price: 450,
        amount_without_nds: 4500,
        nds_rate: 20,
        nds_amount: 900,
        amount_with_nds: 5400,
      },
      {
        number: 2,
        name: 'Доставка до склада',
        product_code: null,
        unit: { code: '876', name: 'усл. ед' },
        quantity: 1,
        price: 1000,
        amount_without_nds: 1000,
        nds_rate: null,
        nds_exempt: true,
        nds_amount: null,
        amount_with_nds: 1000,
      },
    ]);
    expect(read.data.totals).toEqual({ amount_without_nds: 5500, nds_amount: 900, amount_with_nds: 6400 });
  });

  it('version 5.02 reads the same; absent totals are null, never computed', () => {
    const read = readFormalized(torg12Xml({ version: '5.02', totals: '<Всего НеттоВс="11"/>' }));
    expect(read.formatVersion).toBe('5.02');
    expect(read.data.totals).toEqual({ amount_without_nds: null, nds_amount: null, amount_with_nds: null });
    expect(read.data.items).toHaveLength(2);
  });

  it('refuses another version, a missing party, an unnamed participant and a non-decimal amount, naming the place', () => {
    expect(codeOf(torg12Xml({ version: '5.03' }))).toMatch(/^unsupported: ТОРГ-12 format version "5.03"/);
    expect(codeOf(torg12Xml({ buyer: '' }))).toBe('unsupported: СодФХЖ1/Покупатель is missing');
    expect(codeOf(torg12Xml({ buyer: '<Покупатель><ИдСв/></Покупатель>' }))).toMatch(/^unsupported: СодФХЖ1\/Покупатель\/ИдСв names neither/);
    expect(codeOf(torg12Xml({ totals: '<Всего СтУчНДСВс="6 400,00"/>' }))).toMatch(/^unsupported: Всего\/@СтУчНДСВс: "6 400,00"/);
  });

  it('another КНД is unknown_knd naming both supported ones; the UPD reader alone still refuses a ТОРГ-12', () => {
    const act = iconv.encode(iconv.decode(torg12Xml(), 'win1251').replace('КНД="1175010"', 'КНД="1175012"'), 'win1251');
    expect(codeOf(act)).toMatch(/^unknown_knd: КНД "1175012" is not supported \(1115131 .*, 1175010 /);
    expect(() => readFormalizedUpd(torg12Xml())).toThrow(/КНД "1175010" is not supported/);
  });
});
