import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { FormalizedXmlError, readFormalizedUpd, writeFormalizedUpd } from '../../src/formalized/index.js';
import { truth, WRITE_OPTIONS } from './helpers.js';

const decoded = (xml: Buffer) => iconv.decode(xml, 'win1251');

function incomplete(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof FormalizedXmlError && e.code === 'incomplete') return e.message;
    throw e;
  }
  throw new Error('expected an incomplete error');
}

describe('writeFormalizedUpd', () => {
  it('names the file from the participant ids, the injected clock (Moscow date) and id source', () => {
    const { fileId, xml } = writeFormalizedUpd(truth(8, 'upd'), 'upd', WRITE_OPTIONS);
    expect(fileId).toBe(`ON_NSCHFDOPPR_${WRITE_OPTIONS.recipientId}_${WRITE_OPTIONS.senderId}_20260315_5f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f`);
    const text = decoded(xml);
    expect(text.startsWith('<?xml version="1.0" encoding="windows-1251"?>')).toBe(true);
    expect(text).toContain(`ИдФайл="${fileId}"`);
    // 07:20:30 UTC is 10:20:30 in Moscow.
    expect(text).toContain('ДатаИнфПр="15.03.2026" ВремИнфПр="10.20.30"');
    expect(readFormalizedUpd(xml).fileId).toBe(fileId);
  });

  it('is windows-1251 bytes, and a character that encoding lacks survives as a character reference', () => {
    const data = truth(8, 'upd');
    data.items[0]!.name = 'Плитка 60×60 м² Ø5';
    const { xml } = writeFormalizedUpd(data, 'upd', WRITE_OPTIONS);
    expect(xml.includes(Buffer.from('Плитка', 'utf8'))).toBe(false);
    expect(decoded(xml)).toContain('НаимТов="Плитка 60&#xD7;60 м&#xB2; &#xD8;5"');
    expect(readFormalizedUpd(xml).data.items[0]!.name).toBe('Плитка 60×60 м² Ø5');
  });

  it('leaves out what the paper did not carry instead of inventing it', () => {
    const data = truth(8, 'invoice');
    data.seller.address = null;
    data.items[0] = { ...data.items[0]!, unit: { code: null, name: null }, quantity: null, price: null };
    data.totals.amount_without_nds = null;
    const { xml } = writeFormalizedUpd(data, 'invoice', WRITE_OPTIONS);
    const text = decoded(xml);
    expect(text.match(/<Адрес>/g)).toHaveLength(1);
    expect(text).not.toContain('СтТовБезНДСВсего');
    expect(text).not.toMatch(/<СведТов НомСтр="1"[^>]*(ОКЕИ_Тов|КолТов|ЦенаТов)/);
    // An invoice has no transfer part and no UPD document name.
    expect(text).not.toContain('СвПродПер');
    expect(text).not.toContain('НаимДокОпр');
    expect(readFormalizedUpd(xml).data).toEqual({ ...data, seller: { ...data.seller, address: null } });
  });

  it('writes the transfer basis and signer from the options', () => {
    const opts = { ...WRITE_OPTIONS, transfer: { operation: 'Работы выполнены', basis: { name: 'Договор', number: '17', date: '01.02.2026' } } };
    const text = decoded(writeFormalizedUpd(truth(8, 'upd'), 'upd', opts).xml);
    expect(text).toMatch(/<СвПер СодОпер="Работы выполнены">\s*<ОснПер РеквНаимДок="Договор" РеквНомерДок="17" РеквДатаДок="01.02.2026"\/>/);
    expect(text).toMatch(/<Подписант Должн="Директор" СпосПодтПолном="1">\s*<ФИО Фамилия="Иванов" Имя="Иван" Отчество="Иванович"\/>/);
  });

  it('writes the shipment documents of an invoice when the caller gives them', () => {
    const data = truth(24, 'invoice');
    const extras = { shipmentDocuments: [{ name: 'Товарная накладная', number: 'ТН-5', date: '10.02.2025' }] };
    const { xml } = writeFormalizedUpd(data, 'invoice', WRITE_OPTIONS, extras);
    expect(decoded(xml)).toMatch(
      /<\/СвПрод>\s*<ДокПодтвОтгрНом РеквНаимДок="Товарная накладная" РеквНомерДок="ТН-5" РеквДатаДок="10.02.2025"\/>\s*<СвПокуп>/,
    );
    expect(readFormalizedUpd(xml).data).toEqual(data);
  });

  it('refuses data missing what the format requires', () => {
    const base = truth(8, 'upd');
    expect(incomplete(() => writeFormalizedUpd({ ...base, document: { number: null, date: '01.01.2026' } }, 'upd', WRITE_OPTIONS))).toMatch(
      /document.number/,
    );
    expect(incomplete(() => writeFormalizedUpd({ ...base, buyer: { ...base.buyer, inn: null } }, 'upd', WRITE_OPTIONS))).toMatch(/buyer.inn/);
    const noRate = { ...base, items: [{ ...base.items[0]!, nds_rate: null, nds_exempt: false }] };
    expect(incomplete(() => writeFormalizedUpd(noRate, 'upd', WRITE_OPTIONS))).toMatch(/items\[0\].nds_rate/);
    const noVat = { ...base, items: [{ ...base.items[0]!, nds_amount: null }] };
    expect(incomplete(() => writeFormalizedUpd(noVat, 'upd', WRITE_OPTIONS))).toMatch(/items\[0\].nds_amount/);
    expect(incomplete(() => writeFormalizedUpd(base, 'upd', { ...WRITE_OPTIONS, transfer: undefined }))).toMatch(/transfer/);
    expect(incomplete(() => writeFormalizedUpd({ ...base, items: [] }, 'upd', WRITE_OPTIONS))).toMatch(/at least one line/);
  });
});
