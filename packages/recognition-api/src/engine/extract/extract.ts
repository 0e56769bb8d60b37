import type { DocumentType, EngineWarning, LineItem, RecognizedData } from '../engine.port.js';
import { doubtfulFieldWarnings } from '../confidence/doubtful-fields.js';
import { detectCorrection, detectDocumentType } from './classify.js';
import { FORMS, findColumnRow, withRuleSpans, type ColumnRow, type FormColumns } from './columns.js';
import { extractTorg12Header } from './header-torg12.js';
import { extractUpdHeader } from './header-upd.js';
import { crossCheckConfidence, repairLineNumbers, repairUnitCodes } from './cross-check.js';
import { cellConfidence, numericText, rowToItem, type FieldConfidence } from './items.js';
import { isExemptText, parseMoney } from './numbers.js';
import { flagTotalsOneDigitOff, lineReadings, repairLine } from './repair.js';
import { joinPages, readTable, type PageTable } from './table.js';
import { footerParties, settleWithFooter } from './upd-footer.js';
import { groupLines, type PageWords, type TextLine } from './words.js';

/** What the layout extraction produces from the word boxes of all pages. */
export interface Extraction {
  documentType: DocumentType;
  data: RecognizedData;
  warnings: EngineWarning[];
  /** Field path (e.g. `seller.inn`, `items[2].price`) → 0..1, see docs/recognition-engine.md. */
  fieldConfidence: FieldConfidence;
}

/**
 * The printed totals (roubles) from the totals lines: a UPD/invoice's "Всего к оплате"; a TORG-12's "Всего по
 * накладной", or its "Итого" when the sheet has exactly one (one page: both lines print the same sums). Per amount,
 * a candidate equal to the sum of the lines read wins; else the first readable one whose confidence is not near 0
 * (a grey scan may garble one of the two lines, "[13465112" for "134 651,12"); else the first. Never the sum
 * itself: a total is reported as printed (Spec: Validation).
 */
function totalsOf(
  table: { totals: PageTable['totals'] },
  type: DocumentType,
  form: FormColumns,
  items: RecognizedData['items'],
  conf: FieldConfidence,
): RecognizedData['totals'] {
  const last = (c: string) => table.totals.filter((t) => t.caption === c).pop();
  const sheets = table.totals.filter((t) => t.caption === 'итого').length;
  const picks = (type === 'torg12' ? [last('всего по накладной'), sheets === 1 ? last('итого') : undefined] : [last('всего к оплате')]).filter(
    (t) => t != null,
  );
  const out: RecognizedData['totals'] = { amount_without_nds: null, nds_amount: null, amount_with_nds: null };
  for (const key of ['amount_without_nds', 'nds_amount', 'amount_with_nds'] as const) {
    const cands = picks.map((p) => {
      const c = [...p.cells].find(([label]) => form.fields[label] === key)?.[1];
      return { value: c && !isExemptText(c.text) ? parseMoney(numericText(c)) : null, conf: cellConfidence(c) };
    });
    const values = items.map((it) => (key === 'nds_amount' && it.nds_exempt ? 0 : it[key]));
    const sum = values.length > 0 && values.every((v) => v != null) ? Math.round(values.reduce<number>((a, v) => a + v! * 100, 0)) : null;
    const best =
      cands.find((c) => c.value != null && sum != null && Math.round(c.value * 100) === sum) ??
      cands.find((c) => c.value != null && c.conf >= 0.3) ??
      cands.find((c) => c.value != null) ??
      cands[0];
    out[key] = best?.value ?? null;
    conf[`totals.${key}`] = best?.conf ?? 0;
  }
  return out;
}

/** Highest confidence (0..1) of an item name read from a phone photo (see {@link extractDocument}). */
export const PHOTO_NAME_CONFIDENCE = 0.85;

/** Where a repeated table header starts: "Страница 2" above it, or its caption words. */
const TABLE_HEADER_RE = /^страница\s+\d+$|наименование|номер\s+по|единица\s+измерения|№\s*п\/п/i;

/**
 * Rows printed on a continuation page above its repeated table header: 1C (through LibreOffice) moves the rows
 * that did not fit, and the sheet's "Итого", to the top of the next page before "Страница N" and the header.
 * Only numbered rows count there (a header line with text in the amount column must not become a row), and a
 * leading unnumbered fragment is dropped (page captions such as "Товарная накладная № 5, страница 2").
 */
function rowsAboveHeader(lines: TextLine[], found: ColumnRow, numberLabel: string): PageTable | null {
  if (found.lineIndex <= 0) return null;
  let end = lines.slice(0, found.lineIndex).findIndex((l) => TABLE_HEADER_RE.test(l.text.trim()));
  if (end < 0) end = found.lineIndex;
  const pre = readTable(lines.slice(0, end), { ...found, lineIndex: -1 }, numberLabel);
  const rows = pre.continuesPrevious ? pre.rows.slice(1) : pre.rows;
  return rows.length > 0 || pre.totals.length > 0 ? { rows, totals: pre.totals, continuesPrevious: false } : null;
}

/** The warning of a page with text whose item table was not found (`pages[i]`); ocr/index.ts reads such a deconvolved page again. */
export const TABLE_NOT_FOUND = 'item table (column-number row) not found';

/**
 * Layout-aware extraction (Spec: Recognised data): classifies the type when `auto`, reads the header above the
 * item table on page 1, finds each page's table by its column-number row (a continuation page without one reuses
 * the previous page's columns; vertical rules, when given, bound the columns), joins rows over pages, maps columns per form, repairs single misread digits
 * the arithmetic proves, and reads the totals line; a UPD's parties are checked against their second print at its foot
 * (upd-footer.ts); unit codes misread in one digit are repaired from the unit name,
 * and field confidences are capped where the document contradicts them (cross-check.ts); values no check can prove
 * and read with low confidence (names, the number) become warnings (confidence/doubtful-fields.ts). Pure: word
 * boxes in, data out.
 */
export function extractDocument(pages: PageWords[], requested: DocumentType | 'auto'): Extraction {
  const warnings: EngineWarning[] = [];
  const conf: FieldConfidence = {};
  const pageLines = pages.map((p) => groupLines(p.words));
  for (const [i, l] of pageLines.entries()) if (l.length === 0) warnings.push({ field: `pages[${i}]`, message: 'no text found on this page' });
  const first = pageLines.find((l) => l.length > 0) ?? [];
  let documentType: DocumentType;
  if (requested !== 'auto') documentType = requested;
  else {
    const detected = detectDocumentType(first);
    if (!detected) warnings.push({ field: 'document_type', message: 'type not recognised; read as a UPD' });
    documentType = detected ?? 'upd';
  }
  const form = FORMS[documentType];
  const numberLabel = Object.entries(form.fields).find(([, f]) => f === 'number')![0];
  const amountLabel = Object.entries(form.fields).find(([, f]) => f === 'amount_with_nds')![0];
  const nameLabel = Object.entries(form.fields).find(([, f]) => f === 'name')![0];

  const tables: PageTable[] = [];
  let cols: ColumnRow | null = null;
  let headerLines = first;
  pageLines.forEach((lines, p) => {
    const row = findColumnRow(lines, form, pages[p].rules);
    const found = row ? (row.spans ? row : withRuleSpans(row, pages[p].rules)) : null;
    if (found && lines === first) headerLines = lines.slice(0, found.lineIndex);
    const use = found ?? (cols ? { ...cols, lineIndex: -1 } : null);
    if (found && p > 0) {
      const pre = rowsAboveHeader(lines, found, numberLabel);
      if (pre) tables.push(pre);
    }
    if (found) cols = found;
    if (use) tables.push(readTable(lines, use, numberLabel, amountLabel, nameLabel));
    else if (lines.length > 0) warnings.push({ field: `pages[${p}]`, message: TABLE_NOT_FOUND });
  });

  const header =
    documentType === 'torg12'
      ? extractTorg12Header(
          headerLines,
          conf,
          pages.some((p) => p.photo),
        )
      : extractUpdHeader(headerLines, conf);
  if (documentType !== 'torg12') {
    const footer = footerParties(pageLines);
    header.seller = settleWithFooter(header.seller, footer.seller, 'seller', conf);
    header.buyer = settleWithFooter(header.buyer, footer.buyer, 'buyer', conf);
  }
  const joined = joinPages(tables);
  const photo = pages.some((p) => p.photo);
  // A row that holds its line number and nothing else (no name, no figure) is no line item: the "1" of a
  // continuation page's column-number row read as a row, a stray number under the table. It is left out with a
  // warning rather than returned as an empty line the accountant would have to delete.
  // The rows are read twice: once into a throwaway confidence map to find the bare ones, then for good, because
  // the confidence paths carry the item's index (`items[3].name`) and those after a dropped row would shift.
  const probes = joined.rows.map((row, i) => rowToItem(row, form, i, {}, photo));
  for (const it of probes.filter(isBareNumber))
    warnings.push({ field: 'items', message: `a table row with only a line number (${it.number}) and no name or figures was left out` });
  joined.rows = joined.rows.filter((_, i) => !isBareNumber(probes[i]));
  const items = joined.rows.map((row, i) => rowToItem(row, form, i, conf, photo));
  // On a phone photo Tesseract drops whole words of a name without a trace ("Кабель силовой медный" read as
  // "Кабель медный" at 95): the words left say nothing of those lost, so no photographed name is reported as sure.
  if (photo) for (const i of items.keys()) conf[`items[${i}].name`] = Math.min(conf[`items[${i}].name`] ?? 0, PHOTO_NAME_CONFIDENCE);
  const correction = detectCorrection(first);
  if (correction?.kind === 'corrective') {
    // Amounts before/after the change and their difference are not a plain document's lines: none are returned,
    // so the empty table and totals make the document a manual check instead of a plausible wrong UPD.
    items.length = 0;
    joined.totals.length = 0;
    for (const path of Object.keys(conf)) if (path.startsWith('items[')) delete conf[path];
    warnings.push({
      field: 'document_type',
      message: 'corrective document (УКД / корректировочный счёт-фактура): not supported; its lines and totals were not read',
    });
  } else if (correction?.kind === 'revision')
    warnings.push({ field: 'document.number', message: `revision № ${correction.number} (line 1а): this document replaces an earlier one` });
  for (const [i, it] of items.entries()) repairLine(it, i, warnings, conf, lineReadings(joined.rows[i], form));
  repairLineNumbers(items, warnings);
  items.forEach((it, i) => {
    if (it.number !== i + 1)
      warnings.push({ field: `items[${i}].number`, message: `line number ${it.number} is out of sequence (expected ${i + 1})` });
  });
  const data: RecognizedData = {
    document: { number: header.number, date: header.date },
    seller: header.seller,
    buyer: header.buyer,
    items,
    totals: totalsOf(joined, documentType, form, items, conf),
  };
  flagTotalsOneDigitOff(data, warnings);
  repairUnitCodes(data, warnings, conf);
  crossCheckConfidence(data, conf);
  warnings.push(...doubtfulFieldWarnings(data, conf));
  return { documentType, data, warnings, fieldConfidence: conf };
}

/** A line item with nothing read but its number: no name and no quantity, price or amount. */
function isBareNumber(it: LineItem): boolean {
  return it.name.trim() === '' && [it.quantity, it.price, it.amount_without_nds, it.nds_amount, it.amount_with_nds].every((v) => v === null);
}
