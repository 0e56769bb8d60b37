import { esc, longDate, money, paginate, quantity } from '../format.js';
import type { HtmlOptions } from './common.js';
import type { TruthData, TruthItem } from '../truth.types.js';
import { stampHtml } from './stamp.js';
import { htmlDocument, kvRow } from './common.js';
import { partyLine } from './party-1c.js';

/** Rows on the first sheet (under the header blocks) and on each continuation sheet. */
export const TORG12_ROWS = { first: 10, rest: 22 };

const WIDTHS = [3, 22, 5, 4, 4, 5, 5, 5, 5, 6, 7, 8, 4, 7, 8];
const HEAD = `<colgroup>${WIDTHS.map((w) => `<col style="width:${w}%">`).join('')}</colgroup>
<tr><th rowspan="2">Номер по по- рядку</th><th colspan="2">Товар</th><th colspan="2">Единица измерения</th><th rowspan="2">Вид упаковки</th>
<th colspan="2">Количество</th><th rowspan="2">Масса брутто</th><th rowspan="2">Количество (масса нетто)</th><th rowspan="2">Цена, руб. коп.</th>
<th rowspan="2">Сумма без учета НДС, руб. коп.</th><th colspan="2">НДС</th><th rowspan="2">Сумма с учетом НДС, руб. коп.</th></tr>
<tr><th>наименование, характеристика, сорт, артикул товара</th><th>код</th><th>наименование</th><th>код по ОКЕИ</th>
<th>в одном месте</th><th>мест, штук</th><th>ставка, %</th><th>сумма, руб. коп.</th></tr>
<tr class="num">${Array.from({ length: 15 }, (_, i) => `<td>${i + 1}</td>`).join('')}</tr>`;

function itemRow(it: TruthItem): string {
  const rate = it.nds_exempt ? 'без НДС' : `${it.nds_rate}%`;
  const vat = it.nds_amount == null ? 'без НДС' : money(it.nds_amount);
  return (
    `<tr><td class="c">${it.number}</td><td>${esc(it.name)}</td><td class="c">${it.product_code ?? ''}</td>` +
    `<td class="c">${it.unit.name}</td><td class="c">${it.unit.code}</td><td></td><td></td><td></td><td></td>` +
    `<td class="r">${quantity(it.quantity!)}</td><td class="r">${money(it.price!)}</td><td class="r">${money(it.amount_without_nds!)}</td>` +
    `<td class="c">${rate}</td><td class="r">${vat}</td><td class="r">${money(it.amount_with_nds!)}</td></tr>`
  );
}

function sumRow(label: string, items: TruthItem[]): string {
  const s = (f: (i: TruthItem) => number | null) => Math.round(items.reduce((a, i) => a + (f(i) ?? 0), 0) * 100) / 100;
  const exempt = items.every((i) => i.nds_amount == null);
  return (
    `<tr class="total"><td colspan="9" style="text-align:right">${label}</td><td class="r">${quantity(Math.round(s((i) => i.quantity) * 1000) / 1000)}</td>` +
    `<td class="c">X</td><td class="r">${money(s((i) => i.amount_without_nds))}</td><td class="c">X</td>` +
    `<td class="r">${exempt ? 'без НДС' : money(s((i) => i.nds_amount))}</td><td class="r">${money(s((i) => i.amount_with_nds))}</td></tr>`
  );
}

function headerBlock(t: TruthData, o: HtmlOptions): string {
  const codes =
    `<table class="grid" style="width:170px;float:right"><tr><td></td><td class="c">Коды</td></tr>` +
    `<tr><td class="small">Форма по ОКУД</td><td class="c">0330212</td></tr><tr><td class="small">по ОКПО</td><td></td></tr>` +
    `<tr><td class="small">Вид деятельности по ОКДП</td><td></td></tr></table>`;
  const party = (p: TruthData['seller']) => esc(partyLine(p, o.partyStyle ?? 'short'));
  const kv =
    `<table class="kv" style="width:840px">${kvRow('Грузоотправитель', party(t.seller))}${kvRow('Грузополучатель', party(t.buyer))}` +
    `${kvRow('Поставщик', party(t.seller))}${kvRow('Плательщик', party(t.buyer))}${kvRow('Основание', 'Основной договор')}</table>`;
  const title =
    `<table style="margin:8px 0 0 260px"><tr><td class="title" style="padding-right:20px">ТОВАРНАЯ НАКЛАДНАЯ</td>` +
    `<td><table class="grid" style="width:230px"><tr><th>Номер документа</th><th>Дата составления</th></tr>` +
    `<tr><td class="c">${esc(t.document.number!)}</td><td class="c" style="white-space:nowrap">${esc(o.date)}</td></tr></table></td></tr></table>`;
  return `<div class="small" style="text-align:right">Унифицированная форма № ТОРГ-12<br>Утверждена постановлением Госкомстата России от 25.12.98 № 132</div>${codes}${kv}${title}`;
}

function footer(t: TruthData): string {
  return (
    `<table class="sign"><tr><td>Отпуск груза разрешил</td><td class="line"></td><td>Главный (старший) бухгалтер</td>` +
    `<td class="line"></td><td>${longDate(t.document.date!)}</td></tr></table>`
  );
}

/**
 * HTML of a TORG-12 waybill laid out as 1C prints it: parties as "name, ИНН, КПП, address" lines, the
 * number/date box, the 15-column item table with its column-number row, "Итого" per sheet and "Всего по
 * накладной" on the last sheet.
 */
export function torg12Html(t: TruthData, o: HtmlOptions = { date: t.document.date!, continuation: 'repeat-header' }): string {
  const chunks = paginate(t.items, TORG12_ROWS.first, TORG12_ROWS.rest);
  const pages = chunks.map((rows, i) => {
    const last = i === chunks.length - 1;
    const sums = `${sumRow('Итого', rows)}${last && chunks.length > 1 ? sumRow('Всего по накладной', t.items) : ''}`;
    const bare = i > 0 && o.continuation === 'no-header';
    // A continuation sheet without a header keeps the column widths (colgroup) and drops the header rows.
    const thead = bare ? HEAD.replace(/<\/colgroup>.*$/s, '</colgroup>') : HEAD;
    const table = `<table class="grid" style="margin-top:8px">${thead}${rows.map(itemRow).join('')}${sums}</table>`;
    const head =
      i === 0
        ? headerBlock(t, o)
        : bare
          ? ''
          : `<div class="small">Товарная накладная № ${esc(t.document.number!)} от ${esc(o.date)}, страница ${i + 1}</div>`;
    return `${head}${table}${last && o.stamps ? stampHtml(t.seller) : ''}${last ? footer(t) : ''}<div class="pageno">Страница ${i + 1}</div>`;
  });
  return htmlDocument(pages);
}
