import { XMLBuilder } from 'fast-xml-parser';
import type { LineItem, Party, RecognizedData } from '../engine/engine.port.js';
import { encodeCp1251 } from './encode.js';
import { FormalizedXmlError } from './errors.js';
import { KND_UPD_SELLER, type UpdFunction } from './read-upd.js';

/** Format version written: 5.03 of order ЕД-7-26/970@, the version of the official schema `ON_NSCHFDOPPR_1_997_01_05_03_05.xsd` (RECOGNITION_UPD_XSD). */
export const WRITE_VERSION = '5.03';

/** A person signing the seller title (`Подписант`); the paper's signature cannot give these. */
export interface UpdSigner {
  surname: string;
  firstName: string;
  patronymic?: string;
  /** `Должн`, e.g. "Генеральный директор". */
  position?: string;
  /** `СпосПодтПолном` (1–6 per the format: how the signer's authority is confirmed; 1 = by the e-signature). */
  authorityMethod: '1' | '2' | '3' | '4' | '5' | '6';
}

/** What the XSD requires and a paper document cannot carry; the caller supplies it (never invented here). */
export interface UpdWriteOptions {
  /** EDO participant id of the sender (seller), e.g. "2BM-7700000016-773601001-…"; goes into the file id. */
  senderId: string;
  /** EDO participant id of the recipient (buyer). */
  recipientId: string;
  signer: UpdSigner;
  /** `СвПродПер/СвПер`, required for СЧФДОП/ДОП: `СодОпер` (e.g. "Товары переданы") and the basis document. */
  transfer?: { operation: string; basis?: DocumentRef };
  /** Program that formed the file (`ВерсПрог`); default "recognition-api". */
  program?: string;
  /** Clock for `ДатаИнфПр`/`ВремИнфПр` and the file id date; default `new Date()` (read in Moscow time). */
  now?: () => Date;
  /** UUID source for the file id; default `crypto.randomUUID`. */
  uuid?: () => string;
}

/** A document reference (`РеквДокТип`): name, number and date (DD.MM.YYYY), all required by the format. */
export interface DocumentRef {
  name: string;
  number: string;
  date: string;
}

/** Extra fields the paper did not carry, passed by the caller when known. */
export interface UpdExtras {
  /**
   * `ДокПодтвОтгрНом`: the shipment documents of an invoice (line 5а). The format's Schematron expects at least one
   * for СЧФ; the recognised data has none, so it is written only when given.
   */
  shipmentDocuments?: DocumentRef[];
  /** `СЧФ` (invoice), `СЧФДОП` (UPD: invoice + transfer) or `ДОП` (UPD transfer only); default by document type. */
  function?: UpdFunction;
}

/** A written file: its id (`ИдФайл`, also the file name without `.xml`) and windows-1251 bytes. */
export interface WrittenUpd {
  fileId: string;
  xml: Buffer;
}

const RUB = { '@_КодОКВ': '643', '@_НаимОКВ': 'Российский рубль' };
const DOC_NAME_UPD = 'Документ об отгрузке товаров (выполнении работ), передаче имущественных прав (документ об оказании услуг)';
const FACT_UPD = 'Документ об отгрузке товаров (выполнении работ), передаче имущественных прав (документ об оказании услуг)';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  processEntities: true,
});

/** Plain decimal text of a number (no exponent), at most `digits` fraction digits, trailing zeros kept to 2. */
function decimal(n: number, digits = 2): string {
  const fixed = n.toFixed(digits);
  return digits > 2 ? fixed.replace(/(\.\d{2}\d*?)0+$/, '$1') : fixed;
}

const need = (ok: unknown, what: string): void => {
  if (ok === null || ok === undefined || ok === '') throw new FormalizedXmlError('incomplete', `${what} is required by the format and missing`);
};

/** Moscow wall-clock parts (UTC+3, no DST since 2014) of an instant. */
function moscow(d: Date): { date: string; time: string; compact: string } {
  const m = new Date(d.getTime() + 3 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  const [y, mo, da] = [m.getUTCFullYear(), p(m.getUTCMonth() + 1), p(m.getUTCDate())];
  return { date: `${da}.${mo}.${y}`, time: `${p(m.getUTCHours())}.${p(m.getUTCMinutes())}.${p(m.getUTCSeconds())}`, compact: `${y}${mo}${da}` };
}

function participant(p: Party, path: string): Record<string, unknown> {
  need(p.inn, `${path}.inn`);
  need(p.name, `${path}.name`);
  let id: Record<string, unknown>;
  if (p.inn!.length === 12) {
    const words = p
      .name!.replace(/^ИП\s+/, '')
      .trim()
      .split(/\s+/);
    if (words.length < 2) throw new FormalizedXmlError('incomplete', `${path}.name: a sole trader needs a surname and a first name`);
    const fio: Record<string, string> = { '@_Фамилия': words[0]!, '@_Имя': words[1]! };
    if (words.length > 2) fio['@_Отчество'] = words.slice(2).join(' ');
    id = { СвИП: { '@_ИННФЛ': p.inn, ФИО: fio } };
  } else {
    const ul: Record<string, string> = { '@_НаимОрг': p.name!, '@_ИННЮЛ': p.inn! };
    if (p.kpp) ul['@_КПП'] = p.kpp;
    id = { СвЮЛУч: ul };
  }
  const out: Record<string, unknown> = { ИдСв: id };
  if (p.address) out.Адрес = { АдрИнф: { '@_КодСтр': '643', '@_НаимСтран': 'Россия', '@_АдрТекст': p.address } };
  return out;
}

function vat(amount: number | null, exempt: boolean, path: string): Record<string, unknown> {
  if (amount !== null) return { СумНал: decimal(amount) };
  if (exempt) return { БезНДС: 'без НДС' };
  throw new FormalizedXmlError('incomplete', `${path}: the VAT amount is missing`);
}

function row(it: LineItem, i: number): Record<string, unknown> {
  const path = `items[${i}]`;
  const exempt = it.nds_exempt === true;
  if (!exempt) need(it.nds_rate, `${path}.nds_rate`);
  const r: Record<string, unknown> = { '@_НомСтр': String(it.number) };
  if (it.name) r['@_НаимТов'] = it.name;
  if (it.unit.code) r['@_ОКЕИ_Тов'] = it.unit.code;
  if (it.unit.name) r['@_НаимЕдИзм'] = it.unit.name;
  if (it.quantity !== null) r['@_КолТов'] = decimal(it.quantity, 11);
  if (it.price !== null) r['@_ЦенаТов'] = decimal(it.price, 11);
  if (it.amount_without_nds !== null) r['@_СтТовБезНДС'] = decimal(it.amount_without_nds);
  r['@_НалСт'] = exempt ? 'без НДС' : `${it.nds_rate}%`;
  if (it.amount_with_nds !== null) r['@_СтТовУчНал'] = decimal(it.amount_with_nds);
  if (it.product_code) r.ДопСведТов = { '@_КодТов': it.product_code };
  r.СумНал = vat(it.nds_amount, exempt, `${path}.nds_amount`);
  return r;
}

/**
 * Writes recognised data as a seller-title formalized file (`ON_NSCHFDOPPR`, КНД 1115131, version
 * {@link WRITE_VERSION}), windows-1251 encoded. Fields the data does not carry are left out where the XSD allows it
 * (addresses, unit, quantity, price, amounts, product code); what the XSD requires and paper cannot give comes from
 * `options` (participant ids, signer, transfer content). Amounts are written with 2 decimals (roubles.kopecks),
 * the document date as given (DD.MM.YYYY). The result is not validated here; run `validateAgainstXsd` on it.
 * @param documentType `upd` → Функция СЧФДОП, `invoice` → СЧФ (unless `extras.function` says otherwise)
 * @throws FormalizedXmlError `incomplete` when something the format requires is missing (number, date, a party's
 *   INN or name, a line's VAT rate or amount, the transfer content of a UPD)
 */
export function writeFormalizedUpd(
  data: RecognizedData,
  documentType: 'upd' | 'invoice',
  options: UpdWriteOptions,
  extras: UpdExtras = {},
): WrittenUpd {
  need(data.document.number, 'document.number');
  need(data.document.date, 'document.date');
  if (data.items.length === 0) throw new FormalizedXmlError('incomplete', 'items: at least one line is required');
  const fn: UpdFunction = extras.function ?? (documentType === 'invoice' ? 'СЧФ' : 'СЧФДОП');
  const now = moscow((options.now ?? (() => new Date()))());
  const uuid = (options.uuid ?? (() => crypto.randomUUID()))();
  const fileId = `ON_NSCHFDOPPR_${options.recipientId}_${options.senderId}_${now.compact}_${uuid}`;

  const doc: Record<string, unknown> = {
    '@_КНД': KND_UPD_SELLER,
    '@_Функция': fn,
    ...(fn === 'СЧФ' ? {} : { '@_ПоФактХЖ': FACT_UPD, '@_НаимДокОпр': DOC_NAME_UPD }),
    '@_ДатаИнфПр': now.date,
    '@_ВремИнфПр': now.time,
    СвСчФакт: {
      '@_НомерДок': data.document.number,
      '@_ДатаДок': data.document.date,
      СвПрод: participant(data.seller, 'seller'),
      ...(extras.shipmentDocuments?.length ? { ДокПодтвОтгрНом: extras.shipmentDocuments.map(docRef) } : {}),
      СвПокуп: participant(data.buyer, 'buyer'),
      ДенИзм: RUB,
    },
    ТаблСчФакт: { СведТов: data.items.map(row), ВсегоОпл: totals(data) },
  };
  if (fn !== 'СЧФ') {
    if (!options.transfer) throw new FormalizedXmlError('incomplete', 'options.transfer (СодОпер) is required for a UPD');
    const t = options.transfer;
    const basis = t.basis ? { ОснПер: docRef(t.basis) } : { БезДокОснПер: '1' };
    doc.СвПродПер = { СвПер: { ...basis, '@_СодОпер': t.operation } };
  }
  const s = options.signer;
  doc.Подписант = {
    ...(s.position ? { '@_Должн': s.position } : {}),
    '@_СпосПодтПолном': s.authorityMethod,
    ФИО: { '@_Фамилия': s.surname, '@_Имя': s.firstName, ...(s.patronymic ? { '@_Отчество': s.patronymic } : {}) },
  };
  const tree = {
    Файл: { '@_ИдФайл': fileId, '@_ВерсФорм': WRITE_VERSION, '@_ВерсПрог': options.program ?? 'recognition-api', Документ: doc },
  };
  const body = builder.build(tree) as string;
  return { fileId, xml: encodeCp1251(`<?xml version="1.0" encoding="windows-1251"?>\n${body}`) };
}

function docRef(d: DocumentRef): Record<string, string> {
  return { '@_РеквНаимДок': d.name, '@_РеквНомерДок': d.number, '@_РеквДатаДок': d.date };
}

function totals(data: RecognizedData): Record<string, unknown> {
  const t = data.totals;
  const exempt = data.items.every((it) => it.nds_exempt === true);
  const out: Record<string, unknown> = {};
  if (t.amount_without_nds !== null) out['@_СтТовБезНДСВсего'] = decimal(t.amount_without_nds);
  if (t.amount_with_nds !== null) out['@_СтТовУчНалВсего'] = decimal(t.amount_with_nds);
  out.СумНалВсего = vat(t.nds_amount, exempt, 'totals.nds_amount');
  return out;
}
