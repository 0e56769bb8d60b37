import type { Party, RecognizedData } from '../engine.port.js';
import { parseDocumentDate } from './dates-vat.js';
import { checkLine, kopecks, LINE_TOLERANCE_KOPECKS } from './line-checks.js';
import { innChecksumOk, innHasValidLength, kppFormatOk } from './tax-ids.js';

/** A remark about one field: `field` is its path in `data` (e.g. `items[2].nds_rate`, `seller.inn`). */
export interface Warning {
  field: string;
  message: string;
}

/** Result of {@link validateRecognizedData}; the inputs of the confidence score. */
export interface ValidationResult {
  warnings: Warning[];
  /** Critical fields that are empty: of `seller.inn`, `buyer.inn`, `totals.amount_with_nds`. */
  emptyCritical: string[];
  /** True when a total differs from the sum of its lines by more than 0.01 RUB per line. */
  totalsMismatch: boolean;
}

const empty = (v: unknown): boolean => v == null || (typeof v === 'string' && v.trim() === '');

function checkParty(role: 'seller' | 'buyer', p: Party, out: ValidationResult): void {
  if (empty(p.inn)) {
    out.emptyCritical.push(`${role}.inn`);
    out.warnings.push({ field: `${role}.inn`, message: 'INN is empty' });
  } else if (!innHasValidLength(p.inn!)) {
    out.warnings.push({ field: `${role}.inn`, message: `INN "${p.inn}" must have 10 or 12 digits` });
  } else if (!innChecksumOk(p.inn!)) {
    out.warnings.push({ field: `${role}.inn`, message: `INN "${p.inn}" fails its check digit` });
  }
  if (!empty(p.kpp) && !kppFormatOk(p.kpp!)) out.warnings.push({ field: `${role}.kpp`, message: `KPP "${p.kpp}" must be 9 characters NNNNXXNNN` });
}

/**
 * Validates recognised data (Spec: Validation and confidence, rules 1-5, plus INN check digits, KPP format,
 * OKEI units and VAT rates by document date). Never throws; every finding is a warning naming its field.
 * Empty critical fields are both a warning (the rule they break) and an `emptyCritical` entry (the extra penalty).
 */
export function validateRecognizedData(data: RecognizedData): ValidationResult {
  const out: ValidationResult = { warnings: [], emptyCritical: [], totalsMismatch: false };
  checkParty('seller', data.seller, out);
  checkParty('buyer', data.buyer, out);

  const date = empty(data.document.date) ? null : parseDocumentDate(data.document.date!);
  if (empty(data.document.date)) out.warnings.push({ field: 'document.date', message: 'document date is empty' });
  else if (!date) out.warnings.push({ field: 'document.date', message: `date "${data.document.date}" is not a valid DD.MM.YYYY date` });
  if (empty(data.document.number)) out.warnings.push({ field: 'document.number', message: 'document number is empty' });

  for (const [i, item] of data.items.entries()) checkLine(item, i, date, out.warnings);

  if (empty(data.totals.amount_with_nds)) {
    out.emptyCritical.push('totals.amount_with_nds');
    out.warnings.push({ field: 'totals.amount_with_nds', message: 'total with VAT is empty' });
  }
  // The other two totals are not critical, but a total the reader lost (a stamp over it) must still be reported,
  // as an empty line cell is; a VAT total is expected only when some line carries VAT.
  if (data.items.length > 0 && empty(data.totals.amount_without_nds))
    out.warnings.push({ field: 'totals.amount_without_nds', message: 'total without VAT is empty' });
  if (data.items.some((it) => !it.nds_exempt) && empty(data.totals.nds_amount))
    out.warnings.push({ field: 'totals.nds_amount', message: 'VAT total is empty' });
  if (data.items.length > 0) {
    const tolerance = LINE_TOLERANCE_KOPECKS * data.items.length;
    for (const key of ['amount_without_nds', 'nds_amount', 'amount_with_nds'] as const) {
      const total = data.totals[key];
      // "без НДС" lines carry a null VAT amount; they add nothing to the VAT total.
      const values = data.items.map((it) => (key === 'nds_amount' && it.nds_exempt ? (it[key] ?? 0) : it[key]));
      if (total == null || values.some((v) => v == null)) continue;
      const sum = values.reduce<number>((acc, v) => acc + kopecks(v!), 0);
      if (Math.abs(sum - kopecks(total)) > tolerance) {
        out.totalsMismatch = true;
        out.warnings.push({ field: `totals.${key}`, message: `total ${total} ≠ sum of lines ${(sum / 100).toFixed(2)}` });
      }
    }
  }
  return out;
}
