import { esc, longDate, money, paginate, quantity } from '../format.js';
import type { HtmlOptions } from './common.js';
import type { TruthData, TruthItem } from '../truth.types.js';
import { stampHtml } from './stamp.js';
import { htmlDocument, kvRow } from './common.js';

/** Rows on the first sheet (under the header blocks) and on each continuation sheet. */
export const UPD_ROWS = { first: 11, rest: 22 };

const COLS_UPD = ['А', '1', '1а', '1б', '2', '2а', '3', '4', '5', '6', '7', '8', '9', '10', '10а', '11'];
const WIDTHS_UPD = [5, 3, 20, 4, 4, 5, 6, 7, 8, 5, 5, 7, 8, 4, 5, 4];

function headerRows(withCode: boolean): string {
  const cells = [
    ...(withCode ? ['Код товара/ работ, услуг'] : []),
    '№ п/п',
    'Наименование товара (описание выполненных работ, оказанных услуг), имущественного права',
    'Код вида товара',
    'Единица измерения код',
    'условное обозначение (национальное)',
    'Количество (объем)',
    'Цена (тариф) за единицу измерения',
    'Стоимость товаров (работ, услуг), имущественных прав без налога - всего',
    'В том числе сумма акциза',
    'Налоговая ставка',
    'Сумма налога, предъявляемая покупателю',
    'Стоимость товаров (работ, услуг), имущественных прав с налогом - всего',
    'Страна происхождения код',
    'краткое наименование',
    'Регистрационный номер декларации на товары',
  ];
  const cols = withCode ? COLS_UPD : COLS_UPD.slice(1);
  const widths = withCode ? WIDTHS_UPD : WIDTHS_UPD.slice(1);
  const colgroup = `<colgroup>${widths.map((w) => `<col style="width:${w}%">`).join('')}</colgroup>`;
  return `${colgroup}<tr>${cells.map((c) => `<th>${c}</th>`).join('')}</tr><tr class="num">${cols.map((c) => `<td>${c}</td>`).join('')}</tr>`;
}

function itemRow(it: TruthItem, withCode: boolean): string {
  const rate = it.nds_exempt ? 'без НДС' : `${it.nds_rate}%`;
  const vat = it.nds_amount == null ? 'без НДС' : money(it.nds_amount);
  const cells = [
    ...(withCode ? [`<td class="c">${it.product_code ?? ''}</td>`] : []),
    `<td class="c">${it.number}</td>`,
    `<td>${esc(it.name)}</td>`,
    '<td class="c">--</td>',
    `<td class="c">${it.unit.code}</td>`,
    `<td class="c">${it.unit.name}</td>`,
    `<td class="r">${quantity(it.quantity!)}</td>`,
    `<td class="r">${money(it.price!)}</td>`,
    `<td class="r">${money(it.amount_without_nds!)}</td>`,
    '<td class="c">без акциза</td>',
    `<td class="c">${rate}</td>`,
    `<td class="r">${vat}</td>`,
    `<td class="r">${money(it.amount_with_nds!)}</td>`,
    '<td class="c">--</td>',
    '<td class="c">--</td>',
    '<td class="c">--</td>',
  ];
  return `<tr>${cells.join('')}</tr>`;
}

function totalRow(t: TruthData, withCode: boolean): string {
  const vat = t.totals.nds_amount == null ? 'без НДС' : money(t.totals.nds_amount);
  return (
    `<tr class="total"><td colspan="${withCode ? 8 : 7}">Всего к оплате (9)</td><td class="r">${money(t.totals.amount_without_nds!)}</td>` +
    `<td class="c">X</td><td class="c">X</td><td class="r">${vat}</td><td class="r">${money(t.totals.amount_with_nds!)}</td><td colspan="3"></td></tr>`
  );
}

function headerBlock(t: TruthData, kind: 'upd' | 'invoice', o: HtmlOptions): string {
  const { seller: s, buyer: b, document: d } = t;
  const innKpp = (p: typeof s) => `${p.inn}${p.kpp ? `/${p.kpp}` : ''}`;
  const rows = [
    kvRow(`<b>Счёт-фактура № ${esc(d.number!)} от ${esc(o.date)}</b>`, '', '(1)'),
    kvRow('Исправление № -- от --', '', '(1а)'),
    kvRow('<b>Продавец:</b>', esc(s.name!), '(2)'),
    kvRow('Адрес:', esc(s.address!), '(2а)'),
    kvRow('ИНН/КПП продавца:', innKpp(s), '(2б)'),
    kvRow('Грузоотправитель и его адрес:', 'он же', '(3)'),
    kvRow('Грузополучатель и его адрес:', esc(`${b.name}, ${b.address}`), '(4)'),
    kvRow('К платёжно-расчётному документу №', '-- от --', '(5)'),
    kvRow('Документ об отгрузке', `№ п/п 1-${t.items.length} № ${esc(d.number!)} от ${esc(o.date)}`, '(5а)'),
    kvRow('<b>Покупатель:</b>', esc(b.name!), '(6)'),
    kvRow('Адрес:', esc(b.address!), '(6а)'),
    kvRow('ИНН/КПП покупателя:', innKpp(b), '(6б)'),
    kvRow('Валюта: наименование, код', 'Российский рубль, 643', '(7)'),
  ];
  const kv = `<table class="kv" style="width:100%">${rows.join('')}</table>`;
  if (kind === 'invoice') {
    return `<div class="small" style="text-align:right">Приложение № 1 к постановлению Правительства Российской Федерации от 26 декабря 2011 г. № 1137</div>${kv}`;
  }
  const left =
    `<td style="width:150px;border:1px solid #000;padding:6px;vertical-align:top"><div class="title">Универсальный передаточный документ</div>` +
    `<div style="margin-top:10px">Статус: <b>1</b></div><div class="small" style="margin-top:8px">1 - счет-фактура и передаточный документ (акт)</div></td>`;
  return `<table style="width:100%"><tr>${left}<td style="padding-left:10px">${kv}</td></tr></table>`;
}

function footer(t: TruthData): string {
  return (
    `<table class="sign"><tr><td>Руководитель организации</td><td class="line"></td><td>Главный бухгалтер</td><td class="line"></td>` +
    `<td>Дата отгрузки</td><td>${longDate(t.document.date!)}</td></tr></table>`
  );
}

/**
 * HTML of a UPD (status 1) or an invoice (счёт-фактура, Decree 1137 form): header blocks (1)–(7), the item
 * table with its column-number row (UPD: А, 1, 1а … 11; invoice: 1, 1а … 11), "Всего к оплате" on the last sheet.
 * Long tables continue on further sheets that repeat the table header, as printed forms do.
 */
export function updHtml(t: TruthData, kind: 'upd' | 'invoice', o: HtmlOptions = { date: t.document.date!, continuation: 'repeat-header' }): string {
  const withCode = kind === 'upd';
  const chunks = paginate(t.items, UPD_ROWS.first, UPD_ROWS.rest);
  const pages = chunks.map((rows, i) => {
    const last = i === chunks.length - 1;
    const bare = i > 0 && o.continuation === 'no-header';
    const thead = bare ? headerRows(withCode).replace(/<tr>.*$/s, '') : headerRows(withCode);
    const table = `<table class="grid" style="margin-top:8px">${thead}${rows.map((r) => itemRow(r, withCode)).join('')}${last ? totalRow(t, withCode) : ''}</table>`;
    const head =
      i === 0
        ? headerBlock(t, kind, o)
        : bare
          ? ''
          : `<div class="small">Счёт-фактура № ${esc(t.document.number!)} от ${esc(o.date)}, лист ${i + 1}</div>`;
    return `${head}${table}${last && o.stamps ? stampHtml(t.seller) : ''}${last ? footer(t) : ''}<div class="pageno">Лист ${i + 1} из ${chunks.length}</div>`;
  });
  return htmlDocument(pages);
}
