import type { DocumentType } from '../engine.port.js';
import { FORMS, findColumnRow } from './columns.js';
import type { TextLine } from './words.js';

/**
 * Detects the document type from the first page's text for `document_type=auto`. A UPD also prints
 * "Счёт-фактура №", so only its own markers make a UPD: the title "Универсальный передаточный документ", "УПД",
 * the "Статус" box with its 1/2, or the transfer part ("Основание передачи (сдачи)…", "Товар (груз) передал"). TORG-12 is recognised by its form name, OKUD code or title; an invoice by
 * "счёт-фактура" (OCR spellings with Latin twins included) or the Decree 1137 annex line without UPD markers.
 * Returns null when nothing matches. OCR-tolerant: markers are word stems.
 */
export function classifyDocument(text: string): DocumentType | null {
  // Latin twins OCR puts into Cyrillic words ("Cчет-фaктypa") are folded first.
  const t = text
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[aceopxyk]/g, (ch) => ({ a: 'а', c: 'с', e: 'е', o: 'о', p: 'р', x: 'х', y: 'у', k: 'к' })[ch]!);
  const score = { upd: 0, torg12: 0, invoice: 0 };
  if (/универсальн/.test(t)) score.upd += 2;
  if (/передаточн\S*\s+документ/.test(t)) score.upd += 2;
  // `\b` is ASCII-only in JavaScript regexes, so word edges around Cyrillic are spelled out.
  if (/(^|[^а-я])упд([^а-я]|$)/.test(t)) score.upd += 2;
  if (/(^|[^а-я])статус\s*:?\s*[12]([^\d]|$)/.test(t)) score.upd += 2;
  // The UPD's transfer part [8]–[19], which a счёт-фактура never has.
  if (/основание\s+передачи|товар\s*\(груз\)\s*(передал|получил)|данные\s+о\s+транспортировке/.test(t)) score.upd += 2;
  if (/торг\s*[-–—]?\s*12/.test(t)) score.torg12 += 2;
  if (/товарная\s+накладная/.test(t)) score.torg12 += 2;
  if (/0330212/.test(t)) score.torg12 += 2;
  if (/плательщик/.test(t) && /поставщик/.test(t)) score.torg12 += 1;
  if (/сч[еe]т\s*[-–—]?\s*фактур/.test(t)) score.invoice += 2;
  if (/1137/.test(t)) score.invoice += 1;
  if (score.upd >= 2) return 'upd';
  if (score.torg12 >= 2) return 'torg12';
  if (score.invoice >= 2) return 'invoice';
  return null;
}

/**
 * When the text names no type: the form whose labels explain the column-number row best, matched labels ÷
 * max(the form's label count, the row's tokens), plus half a label when the counts agree. A UPD's row is the invoice's row plus "А", so an
 * invoice row matches 15 of the UPD's 16 labels: counting matched labels alone (with the UPD tried first) made
 * every such invoice a UPD. Ties go to the invoice.
 */
export function classifyByColumns(lines: TextLine[]): DocumentType | null {
  let best: DocumentType | null = null;
  let bestShare = 0;
  for (const t of ['invoice', 'upd', 'torg12'] as DocumentType[]) {
    const row = findColumnRow(lines, FORMS[t]);
    if (!row) continue;
    // Half a label more when the row has exactly as many tokens as the form has columns: a UPD row whose "А" is
    // misread still has 16 cells, which the invoice's 15 columns cannot explain.
    const n = FORMS[t].labels.length;
    const share = ((row.matched ?? row.centers.size) + (row.tokens === n ? 0.5 : 0)) / Math.max(n, row.tokens ?? 0);
    if (share > bestShare) [best, bestShare] = [t, share];
  }
  return best;
}

/**
 * The document type of the first page's lines: by text ({@link classifyDocument}), else by the column-number row
 * ({@link classifyByColumns}); null when neither decides (the caller reads it as a UPD with a warning).
 */
export function detectDocumentType(lines: TextLine[]): DocumentType | null {
  return classifyDocument(lines.map((l) => ownText(l.text)).join('\n')) ?? classifyByColumns(lines);
}

/**
 * A line's text without the values that name other documents: a счёт-фактура's line (5а) "Документ об отгрузке
 * № п/п 1-3 № УПД-0412 от …" (or "… Универсальный передаточный документ № 12") and line (5) cite the shipping and
 * payment documents, and those words must not make the invoice a UPD. Text left of the label stays: the
 * UPD's status box shares lines with these rows.
 */
function ownText(text: string): string {
  return text.replace(/(документ\S*\s+об\s+отгрузке|платежно\S*\s+документ\S*).*$/i, '$1');
}

/** What the first page says about correction: a corrective document, a revision (line 1а filled), or neither. */
export interface CorrectionNotice {
  kind: 'corrective' | 'revision';
  /** The revision number as printed (line 1а), for `revision`. */
  number?: string;
}

/**
 * Detects a corrected document on the first page (docs/decisions.md, "Reading real documents"). A corrective document ("Универсальный
 * корректировочный документ", "Корректировочный счёт-фактура", form of ПП 1137 appendix 2) prints amounts before and
 * after the change and their difference: read as a plain UPD it would give wrong positive amounts, so the caller
 * must not return its table as items. A revision ("Исправление № 2 от …", line 1а filled) is a full document that
 * replaces an earlier one: its amounts are whole, and the caller reports the revision. Line 1а printed empty
 * ("Исправление № -- от --") is neither.
 */
export function detectCorrection(lines: TextLine[]): CorrectionNotice | null {
  const text = lines.map((l) => l.text).join('\n');
  if (/корректировочн/i.test(text)) return { kind: 'corrective' };
  for (const line of lines) {
    const m = /исправлени\S*\s*(?:№|N[oо°]?)\s*(.*?)\s+от(?:\s|$)/i.exec(line.text);
    if (m && /\d/.test(m[1])) return { kind: 'revision', number: m[1].replace(/[^\dА-Яа-яA-Za-z/-]/g, '') };
  }
  return null;
}
