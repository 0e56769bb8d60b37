import type { DocumentType } from '../engine.port.js';

/**
 * Detects the document type from the first page's text for `document_type=auto`. A UPD also prints
 * "Счёт-фактура №", so its own markers win; TORG-12 is recognised by its form name, OKUD code or title;
 * an invoice by "счёт-фактура" alone. Returns null when nothing matches. OCR-tolerant: markers are word stems.
 */
export function classifyDocument(text: string): DocumentType | null {
  const t = text.toLowerCase().replace(/ё/g, 'е');
  const score = { upd: 0, torg12: 0, invoice: 0 };
  if (/универсальн/.test(t)) score.upd += 2;
  if (/передаточн\S*\s+документ/.test(t)) score.upd += 2;
  if (/\bупд\b/.test(t)) score.upd += 2;
  if (/статус\s*:?\s*[12]\b/.test(t)) score.upd += 1;
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
