import type { LineItem, Party } from '../engine/engine.port.js';
import { FormalizedXmlError } from './errors.js';
import { address, fio, num, parseVatRate, type FormalizedDocument } from './read-upd.js';
import { attr, child, children, type XmlNode } from './xml-tree.js';

/** КНД of the ТОРГ-12 seller title (`DP_TOVTORGPR`, order ММВ-7-10/551@). */
export const KND_TORG12_SELLER = '1175010';
/** Format versions of the ТОРГ-12 seller title this reader maps (the elements read are the same in both). */
export const TORG12_READ_VERSIONS = ['5.01', '5.02'] as const;

/**
 * A participant of the ТОРГ-12 title: a legal entity `ИдСв/СвОрг/СвЮЛ` (НаимОрг, ИННЮЛ, КПП) or a sole trader
 * `ИдСв/СвИП` (ИННФЛ, ФИО → "ИП Фамилия Имя Отчество", no KPP); the address as in the UPD.
 */
function party(node: XmlNode | undefined, path: string): Party {
  if (!node) throw new FormalizedXmlError('unsupported', `${path} is missing`);
  const id = child(node, 'ИдСв');
  const ul = child(child(id, 'СвОрг'), 'СвЮЛ');
  if (ul) return { name: attr(ul, 'НаимОрг'), inn: attr(ul, 'ИННЮЛ'), kpp: attr(ul, 'КПП'), address: address(node) };
  const ip = child(id, 'СвИП');
  if (ip) {
    const name = fio(ip);
    return { name: name ? `ИП ${name}` : null, inn: attr(ip, 'ИННФЛ'), kpp: null, address: address(node) };
  }
  throw new FormalizedXmlError('unsupported', `${path}/ИдСв names neither СвОрг/СвЮЛ nor СвИП`);
}

/** `СодФХЖ2/СвТов`: one line of the goods table. */
function item(row: XmlNode, i: number): LineItem {
  const p = `СодФХЖ2/СвТов[${i + 1}]`;
  const { rate, exempt } = parseVatRate(attr(row, 'НалСт'));
  const out: LineItem = {
    number: Number(attr(row, 'НомТов') ?? i + 1),
    name: attr(row, 'НаимТов') ?? '',
    product_code: attr(row, 'КодТов'),
    unit: { code: attr(row, 'ОКЕИ_Тов'), name: attr(row, 'НаимЕдИзм') },
    quantity: num(row, 'НеттоПередано', `${p}/@НеттоПередано`),
    price: num(row, 'Цена', `${p}/@Цена`),
    amount_without_nds: num(row, 'СтБезНДС', `${p}/@СтБезНДС`),
    nds_rate: rate,
    nds_amount: num(row, 'СумНДС', `${p}/@СумНДС`),
    amount_with_nds: num(row, 'СтУчНДС', `${p}/@СтУчНДС`),
  };
  if (exempt) out.nds_exempt = true;
  return out;
}

/**
 * Maps a parsed ТОРГ-12 seller title (root `Файл`, `Документ/@КНД` 1175010) into the recognised-data shape:
 * number and date from `СвДокПТПрКроме/СвДокПТПр/ИдентДок` (НомДокПТ, ДатаДокПТ), seller and buyer from its
 * `СодФХЖ1` (Продавец, Покупатель; not the consignor or consignee), lines from `СвДокПТПрКроме/СодФХЖ2/СвТов`,
 * totals from `СодФХЖ2/Всего` (СтБезНДСВс, СумНДСВс, СтУчНДСВс). Absent attributes give null, never a computed value.
 * @throws FormalizedXmlError `unsupported` for another version, a missing part or a non-decimal amount
 */
export function mapTorg12Tree(tree: XmlNode): FormalizedDocument {
  const file = child(tree, 'Файл');
  const doc = child(file, 'Документ');
  const version = attr(file, 'ВерсФорм') ?? '';
  if (!(TORG12_READ_VERSIONS as readonly string[]).includes(version)) {
    throw new FormalizedXmlError('unsupported', `ТОРГ-12 format version "${version}" is not supported (${TORG12_READ_VERSIONS.join(', ')})`);
  }
  const body = child(doc, 'СвДокПТПрКроме');
  const head = child(body, 'СвДокПТПр');
  if (!head) throw new FormalizedXmlError('unsupported', 'СвДокПТПрКроме/СвДокПТПр is missing');
  const ident = child(head, 'ИдентДок');
  const facts = child(head, 'СодФХЖ1');
  const table = child(body, 'СодФХЖ2');
  const total = child(table, 'Всего');
  return {
    documentType: 'torg12',
    function: null,
    formatVersion: version,
    fileId: attr(file, 'ИдФайл'),
    knd: KND_TORG12_SELLER,
    data: {
      document: { number: attr(ident, 'НомДокПТ'), date: attr(ident, 'ДатаДокПТ') },
      seller: party(child(facts, 'Продавец'), 'СодФХЖ1/Продавец'),
      buyer: party(child(facts, 'Покупатель'), 'СодФХЖ1/Покупатель'),
      items: children(table, 'СвТов').map(item),
      totals: {
        amount_without_nds: num(total, 'СтБезНДСВс', 'Всего/@СтБезНДСВс'),
        nds_amount: num(total, 'СумНДСВс', 'Всего/@СумНДСВс'),
        amount_with_nds: num(total, 'СтУчНДСВс', 'Всего/@СтУчНДСВс'),
      },
    },
  };
}
