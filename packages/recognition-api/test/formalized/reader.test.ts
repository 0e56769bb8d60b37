import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { parseVatRate, readFormalizedUpd } from '../../src/formalized/index.js';

const fixture = readFileSync(new URL('fixtures/upd-5.03-hand.cp1251.xml', import.meta.url));

describe('readFormalizedUpd on a hand-written windows-1251 file', () => {
  it('is stored in windows-1251 (not UTF-8) bytes', () => {
    expect(fixture.includes(Buffer.from('Файл', 'utf8'))).toBe(false);
    expect(fixture.includes(iconv.encode('Файл', 'win1251'))).toBe(true);
  });

  it('reads every field the file carries', () => {
    const doc = readFormalizedUpd(fixture);
    expect(doc).toMatchObject({ documentType: 'upd', function: 'СЧФДОП', formatVersion: '5.03', knd: '1115131' });
    expect(doc.fileId).toMatch(/^ON_NSCHFDOPPR_2BM-7701234567/);
    expect(doc.data.document).toEqual({ number: 'УТ-00042', date: '15.03.2026' });
    expect(doc.data.seller).toEqual({
      name: 'ООО «Ромашка»',
      inn: '7701234567',
      kpp: '770101001',
      address: '101000, г. Москва, ул. Мясницкая, д. 10, офис 5',
    });
    expect(doc.data.buyer).toEqual({ name: 'ИП Михайлов Дмитрий Николаевич', inn: '526074713733', kpp: null, address: null });
    expect(doc.data.items).toEqual([
      {
        number: 1,
        name: 'Предоплата за кабель ВВГнг 3х2,5 & монтаж',
        product_code: null,
        unit: { code: null, name: null },
        quantity: null,
        price: null,
        amount_without_nds: null,
        nds_rate: 20,
        nds_amount: 200,
        amount_with_nds: 1200,
      },
      {
        number: 2,
        name: 'Перчатки рабочие',
        product_code: 'A-17',
        unit: { code: '796', name: 'шт' },
        quantity: 12.5,
        price: 40.4,
        amount_without_nds: 505,
        nds_rate: null,
        nds_exempt: true,
        nds_amount: null,
        amount_with_nds: 505,
      },
    ]);
    expect(doc.data.totals).toEqual({ amount_without_nds: null, nds_amount: 200, amount_with_nds: 1705 });
  });

  it('reads the same file re-encoded as UTF-8 to the same data', () => {
    const utf8 = Buffer.from(iconv.decode(fixture, 'win1251').replace('encoding="windows-1251"', 'encoding="UTF-8"'), 'utf8');
    expect(readFormalizedUpd(utf8).data).toEqual(readFormalizedUpd(fixture).data);
  });

  it('maps Функция СЧФ to an invoice and ДОП to a transfer-only UPD', () => {
    const text = iconv.decode(fixture, 'win1251');
    const as = (fn: string) => readFormalizedUpd(iconv.encode(text.replace('Функция="СЧФДОП"', `Функция="${fn}"`), 'win1251'));
    expect(as('СЧФ')).toMatchObject({ documentType: 'invoice', function: 'СЧФ' });
    expect(as('ДОП')).toMatchObject({ documentType: 'upd', function: 'ДОП' });
  });
});

describe('parseVatRate', () => {
  it.each([
    ['20%', 20, false],
    ['22%', 22, false],
    ['10%', 10, false],
    ['0%', 0, false],
    ['без НДС', null, true],
    ['20/120', 20, false],
    ['10/110', 10, false],
    ['22/122', 22, false],
    ['5%', 5, false],
    ['16,67%', 20, false],
    ['18,03%', 22, false],
    ['9,09%', 10, false],
    ['НДС исчисляется налоговым агентом', null, false],
  ] as const)('%s → rate %s, exempt %s', (v, rate, exempt) => {
    expect(parseVatRate(v)).toEqual({ rate, exempt });
  });
});
