import type { DocumentType, LineItem, Party, RecognizedData } from '../engine/engine.port.js';
import { decodeFormalized } from './decode.js';
import { FormalizedXmlError } from './errors.js';
import { attr, child, children, parseXmlTree, text, type XmlNode } from './xml-tree.js';

/** КНД of the seller title of the UPD / invoice (formats 5.01 of ММВ-7-15/820@, 5.02/5.03 of ЕД-7-26/970@). */
export const KND_UPD_SELLER = '1115131';
/** Format versions of the seller title this reader maps. */
export const READ_VERSIONS = ['5.01', '5.02', '5.03'] as const;

/** `Документ/@Функция` and what it means here. */
export type UpdFunction = 'СЧФ' | 'СЧФДОП' | 'ДОП';

/** A formalized document read into the recognised-data shape, with what the file said about itself. */
export interface FormalizedDocument {
  /** `invoice` for СЧФ, `upd` for СЧФДОП and ДОП, `torg12` for a ТОРГ-12 title. */
  documentType: DocumentType;
  /** `Документ/@Функция` of a UPD / invoice; null for a ТОРГ-12, whose format has none. */
  function: UpdFunction | null;
  /** `Файл/@ВерсФорм`, e.g. "5.03". */
  formatVersion: string;
  /** `Файл/@ИдФайл`. */
  fileId: string | null;
  /** `Документ/@КНД`. */
  knd: string;
  data: RecognizedData;
}

const FUNCTIONS: Record<UpdFunction, DocumentType> = { СЧФ: 'invoice', СЧФДОП: 'upd', ДОП: 'upd' };

/** A decimal attribute in roubles (or a quantity) as a number; null when absent. @throws FormalizedXmlError `unsupported` naming `path`. */
export function num(node: XmlNode | undefined, name: string, path: string): number | null {
  const v = attr(node, name);
  return v === null ? null : toNumber(v, path);
}

function toNumber(v: string, path: string): number {
  if (!/^-?\d+(\.\d+)?$/.test(v)) throw new FormalizedXmlError('unsupported', `${path}: "${v}" is not a decimal number`);
  return Number(v);
}

/** `СумНДСТип`: a `СумНал` amount, or null for `БезНДС` / absent. */
function vatAmount(node: XmlNode | undefined, path: string): number | null {
  const v = text(node, 'СумНал');
  return v === null ? null : toNumber(v, path);
}

// 5.03 also spells calculated rates as percents: 10/110, 20/120, 22/122.
const CALCULATED: Record<string, number> = { '9,09%': 10, '16,67%': 20, '18,03%': 22 };

/**
 * `НалСт` → percent. `9,09%`, `16,67%`, `18,03%` are the calculated rates 10/110, 20/120, 22/122. `20/120`-style values are the calculated rate of an advance or agent line: the percent is
 * the numerator. "НДС исчисляется налоговым агентом" carries no percent (null, not exempt).
 */
export function parseVatRate(v: string | null): { rate: number | null; exempt: boolean } {
  if (v === null) return { rate: null, exempt: false };
  if (/^без ндс$/i.test(v)) return { rate: null, exempt: true };
  const m = /^(\d{1,2})(?:%|\/1\d{2})$/.exec(v);
  if (m) return { rate: Number(m[1]), exempt: false };
  return { rate: CALCULATED[v] ?? null, exempt: false };
}

const ADDRESS_PARTS = ['Индекс', 'НаимРегион', 'Район', 'Город', 'НаселПункт', 'Улица', 'Дом', 'Корпус', 'Кварт'];

/** `Адрес` of a participant as one line (АдрИнф text, АдрРФ parts, or ГАР names); null without one. */
export function address(party: XmlNode): string | null {
  const adr = child(party, 'Адрес');
  if (!adr) return null;
  const info = child(adr, 'АдрИнф');
  if (info) return attr(info, 'АдрТекст');
  const rf = child(adr, 'АдрРФ');
  if (rf) {
    const parts = ADDRESS_PARTS.map((p) => attr(rf, p)).filter((x): x is string => x !== null);
    return parts.length ? parts.join(', ') : null;
  }
  // 5.03 ГАР address: its text children in schema order.
  const gar = child(adr, 'АдрГАР');
  if (gar) {
    const parts = Object.entries(gar)
      .filter(([k]) => !k.startsWith('@_'))
      .flatMap(([, v]) => (Array.isArray(v) ? v : [v]))
      .map((v) => (typeof v === 'string' ? v : typeof v === 'object' && v ? (attr(v as XmlNode, 'Наим') ?? attr(v as XmlNode, 'Номер')) : null))
      .filter((x): x is string => !!x);
    return parts.length ? parts.join(', ') : null;
  }
  return null;
}

/** "Фамилия Имя Отчество" of a node's `ФИО`, or null. */
export function fio(node: XmlNode | undefined): string | null {
  const f = child(node, 'ФИО');
  if (!f) return null;
  return [attr(f, 'Фамилия'), attr(f, 'Имя'), attr(f, 'Отчество')].filter(Boolean).join(' ') || null;
}

/** `УчастникТип` → Party: a legal entity (СвЮЛУч), a sole trader (СвИП, 12-digit INN, no KPP) or a person. */
function party(node: XmlNode | undefined, path: string): Party {
  if (!node) throw new FormalizedXmlError('unsupported', `${path} is missing`);
  const id = child(node, 'ИдСв');
  const ul = child(id, 'СвЮЛУч');
  if (ul) return { name: attr(ul, 'НаимОрг'), inn: attr(ul, 'ИННЮЛ'), kpp: attr(ul, 'КПП'), address: address(node) };
  const ip = child(id, 'СвИП');
  if (ip) {
    const name = fio(ip);
    return { name: name ? `ИП ${name}` : null, inn: attr(ip, 'ИННФЛ'), kpp: null, address: address(node) };
  }
  const fl = child(id, 'СвФЛУч');
  if (fl) return { name: fio(fl), inn: attr(fl, 'ИННФЛ'), kpp: null, address: address(node) };
  const foreign = child(id, 'СвИнНеУч');
  if (foreign) return { name: attr(foreign, 'Наим'), inn: null, kpp: null, address: address(node) };
  throw new FormalizedXmlError('unsupported', `${path}/ИдСв names no participant`);
}

function item(row: XmlNode, i: number): LineItem {
  const p = `ТаблСчФакт/СведТов[${i + 1}]`;
  const { rate, exempt } = parseVatRate(attr(row, 'НалСт'));
  const out: LineItem = {
    number: Number(attr(row, 'НомСтр') ?? i + 1),
    name: attr(row, 'НаимТов') ?? '',
    product_code: attr(child(row, 'ДопСведТов'), 'КодТов'),
    unit: { code: attr(row, 'ОКЕИ_Тов'), name: attr(row, 'НаимЕдИзм') },
    quantity: num(row, 'КолТов', `${p}/@КолТов`),
    price: num(row, 'ЦенаТов', `${p}/@ЦенаТов`),
    amount_without_nds: num(row, 'СтТовБезНДС', `${p}/@СтТовБезНДС`),
    nds_rate: rate,
    nds_amount: vatAmount(child(row, 'СумНал'), `${p}/СумНал`),
    amount_with_nds: num(row, 'СтТовУчНал', `${p}/@СтТовУчНал`),
  };
  if (exempt) out.nds_exempt = true;
  return out;
}

/** Maps a parsed tree whose root is `Файл`; see {@link readFormalizedUpd}. */
export function mapUpdTree(tree: XmlNode): FormalizedDocument {
  const file = child(tree, 'Файл');
  if (!file) throw new FormalizedXmlError('unsupported', 'the root element is not Файл: not an FNS formalized document');
  const doc = child(file, 'Документ');
  const knd = attr(doc, 'КНД');
  if (knd !== KND_UPD_SELLER) {
    throw new FormalizedXmlError('unknown_knd', `КНД "${knd ?? ''}" is not supported (only ${KND_UPD_SELLER}, the UPD/invoice seller title)`);
  }
  const version = attr(file, 'ВерсФорм') ?? '';
  if (!(READ_VERSIONS as readonly string[]).includes(version)) {
    throw new FormalizedXmlError('unsupported', `format version "${version}" is not supported (${READ_VERSIONS.join(', ')})`);
  }
  const fn = attr(doc, 'Функция') as UpdFunction | null;
  if (!fn || !(fn in FUNCTIONS)) throw new FormalizedXmlError('unsupported', `Функция "${fn ?? ''}" is not supported (СЧФ, СЧФДОП, ДОП)`);
  const sf = child(doc, 'СвСчФакт');
  if (!sf) throw new FormalizedXmlError('unsupported', 'СвСчФакт is missing');
  const table = child(doc, 'ТаблСчФакт');
  const total = child(table, 'ВсегоОпл');
  const totalVat = child(total, 'СумНалВсего');
  return {
    documentType: FUNCTIONS[fn],
    function: fn,
    formatVersion: version,
    fileId: attr(file, 'ИдФайл'),
    knd,
    data: {
      document: { number: attr(sf, 'НомерДок'), date: attr(sf, 'ДатаДок') },
      seller: party(children(sf, 'СвПрод')[0], 'СвСчФакт/СвПрод'),
      buyer: party(children(sf, 'СвПокуп')[0], 'СвСчФакт/СвПокуп'),
      items: children(table, 'СведТов').map(item),
      totals: {
        amount_without_nds: num(total, 'СтТовБезНДСВсего', 'ВсегоОпл/@СтТовБезНДСВсего'),
        nds_amount: vatAmount(totalVat, 'ВсегоОпл/СумНалВсего'),
        amount_with_nds: num(total, 'СтТовУчНалВсего', 'ВсегоОпл/@СтТовУчНалВсего'),
      },
    },
  };
}

/**
 * Reads a formalized UPD / invoice seller title (`ON_NSCHFDOPPR`, КНД 1115131, formats 5.01/5.02/5.03) into the
 * recognised-data shape. Every value comes from the XML: dates DD.MM.YYYY as in the file, amounts in roubles with
 * kopecks as decimals, INN/KPP/OKEI codes as strings. Does not check the XSD (see `validateAgainstXsd`).
 * @param bytes the file as received (windows-1251 or UTF-8 by its declaration, at most 5 MiB)
 * @throws FormalizedXmlError `too_large`, `encoding`, `dtd_forbidden`, `malformed`, `unknown_knd` (another КНД)
 *   or `unsupported` (another root, version or Функция, a missing required part, a non-numeric amount)
 */
export function readFormalizedUpd(bytes: Buffer): FormalizedDocument {
  return mapUpdTree(parseXmlTree(decodeFormalized(bytes)));
}
