import type { TruthData, TruthParty } from '@app/docgen';

/**
 * XML text in the encoding its declaration names (FNS files are usually windows-1251); UTF-8 without one.
 * @throws RangeError for an encoding the runtime does not know.
 */
export function decodeXml(content: Buffer): string {
  const declared = /^\s*<\?xml[^>]*encoding=["']([A-Za-z0-9_-]+)["']/.exec(content.subarray(0, 200).toString('latin1'))?.[1];
  return new TextDecoder(declared ?? 'utf-8').decode(content);
}

/**
 * Writes a seeded UPD (СЧФДОП) or invoice (СЧФ) as the FNS 5.03 seller title: the recognition API's writer
 * (`formalized/write-upd.ts`), injected by whoever starts the simulator so this package does not depend on it.
 * `senderId`/`recipientId` are the parties' EDO participant ids, `uuid` the file id's GUID, `at` the formation time.
 */
export type FormalizedWriter = (
  kind: 'upd' | 'invoice',
  truth: TruthData,
  file: { senderId: string; recipientId: string; uuid: string; at: Date },
) => { fileId: string; xml: Buffer };

const esc = (s: string | number | null | undefined): string =>
  String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
const money = (n: number | null): string => (n ?? 0).toFixed(2);

function party(tag: string, p: TruthParty): string {
  const id =
    p.inn && p.inn.length === 12
      ? `<СвИП ИННФЛ="${esc(p.inn)}"><ФИО Фамилия="${esc(p.name)}"/></СвИП>`
      : `<СвЮЛУч НаимОрг="${esc(p.name)}" ИННЮЛ="${esc(p.inn)}" КПП="${esc(p.kpp)}"/>`;
  return `    <${tag}><ИдСв>${id}</ИдСв><Адрес><АдрИнф КодСтр="643" НаимСтран="Россия" АдрТекст="${esc(p.address)}"/></Адрес></${tag}>`;
}

function item(it: TruthData['items'][number]): string {
  const rate = it.nds_rate === null ? 'без НДС' : `${it.nds_rate}%`;
  const vat = it.nds_amount === null ? '<БезНДС>без НДС</БезНДС>' : `<СумНал>${money(it.nds_amount)}</СумНал>`;
  return (
    `    <СведТов НомСтр="${it.number}" НаимТов="${esc(it.name)}" ОКЕИ_Тов="${esc(it.unit.code)}" НаимЕдИзм="${esc(it.unit.name)}"` +
    ` КолТов="${it.quantity}" ЦенаТов="${money(it.price)}" СтТовБезНДС="${money(it.amount_without_nds)}" НалСт="${rate}"` +
    ` СтТовУчНал="${money(it.amount_with_nds)}"><Акциз><БезАкциз>без акциза</БезАкциз></Акциз><СумНал>${vat}</СумНал></СведТов>`
  );
}

/** `ON_NSCHFDOPPR_<buyer>_<seller>_<yyyymmdd>_<guid>`: the ФНС file id that is also the file name (without .xml). */
export function fileId(kind: 'upd' | 'invoice', sellerBox: string, buyerBox: string, date: string, guid: string): string {
  const [d, m, y] = date.split('.');
  const prefix = kind === 'upd' ? 'ON_NSCHFDOPPR' : 'ON_NSCHF';
  return `${prefix}_2BM-${buyerBox.slice(0, 12)}_2BM-${sellerBox.slice(0, 12)}_${y}${m}${d}_${guid}`;
}

/**
 * The formalized XML of a UPD (function СЧФДОП) or an invoice (function СЧФ) in the ФНС 5.03 layout
 * (КНД 1115131): seller, buyer, currency, the item table and totals, from docgen's ground truth so the
 * simulator's documents carry the same company data and sums as the recognition test images.
 */
export function documentXml(kind: 'upd' | 'invoice', id: string, truth: TruthData): string {
  const t = truth.totals;
  const totalVat = t.nds_amount === null ? '<БезНДС>без НДС</БезНДС>' : `<СумНал>${money(t.nds_amount)}</СумНал>`;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<Файл ИдФайл="${esc(id)}" ВерсФорм="5.03" ВерсПрог="edo-simulator 0.1">`,
    `  <Документ КНД="1115131" Функция="${kind === 'upd' ? 'СЧФДОП' : 'СЧФ'}" ДатаИнфПр="${esc(truth.document.date)}"` +
      ` НаимЭконСубСост="${esc(truth.seller.name)}">`,
    `   <СвСчФакт НомерДок="${esc(truth.document.number)}" ДатаДок="${esc(truth.document.date)}">`,
    party('СвПрод', truth.seller),
    party('СвПокуп', truth.buyer),
    '    <ДенИзм КодОКВ="643" НаимОКВ="Российский рубль"/>',
    '   </СвСчФакт>',
    '   <ТаблСчФакт>',
    ...truth.items.map(item),
    `    <ВсегоОпл СтТовБезНДСВсего="${money(t.amount_without_nds)}" СтТовУчНалВсего="${money(t.amount_with_nds)}">` +
      `<СумНалВсего>${totalVat}</СумНалВсего></ВсегоОпл>`,
    '   </ТаблСчФакт>',
    '  </Документ>',
    '</Файл>',
    '',
  ].join('\n');
}
