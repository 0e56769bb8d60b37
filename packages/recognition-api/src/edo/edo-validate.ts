import { invalid } from '../errors.js';

/**
 * Checks the schemas cannot express (Spec: E-document operator gateway; 422 VALIDATION_ERROR naming the field).
 * They run before anything is sent to the operator.
 */

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A `dd.MM.yyyy` that is a real calendar date, as a UTC Date. */
export function ddmmyyyy(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value);
  const d = m ? new Date(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]))) : undefined;
  if (!m || !d || d.getUTCDate() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1)
    throw invalid(field, `must be a date dd.MM.yyyy, got "${value}"`);
  return d;
}

/** An ISO 8601 instant with a time and an offset (or Z). */
export function isoInstant(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const d = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value) ? new Date(value) : undefined;
  if (!d || Number.isNaN(d.getTime())) throw invalid(field, `must be an ISO 8601 instant such as 2026-11-23T09:00:00Z, got "${value}"`);
  return d;
}

/** Document dates and ISO timestamps of the documents list: valid, ordered, not mixed (Diadoc: 400). */
export function documentsWindow(q: {
  fromDocumentDate?: string;
  toDocumentDate?: string;
  timestampFrom?: string;
  timestampTo?: string;
  documentNumber?: string;
}) {
  const from = ddmmyyyy('fromDocumentDate', q.fromDocumentDate);
  const to = ddmmyyyy('toDocumentDate', q.toDocumentDate);
  if (from && to && to < from) throw invalid('toDocumentDate', 'must not be before fromDocumentDate');
  const tFrom = isoInstant('timestampFrom', q.timestampFrom);
  const tTo = isoInstant('timestampTo', q.timestampTo);
  if (tFrom && tTo && tTo < tFrom) throw invalid('timestampTo', 'must not be before timestampFrom');
  if ((tFrom || tTo) && (from || to))
    throw invalid(tFrom ? 'timestampFrom' : 'timestampTo', 'cannot be combined with fromDocumentDate/toDocumentDate');
  if ((tFrom || tTo) && q.documentNumber) throw invalid('documentNumber', 'cannot be combined with timestampFrom/timestampTo');
  return { timestampFrom: tFrom, timestampTo: tTo };
}

/** Every `SignedContent.Content`/`Signature` is strict base64 (padding included). */
export function attachmentsBase64(list: { SignedContent: { Content: string; Signature?: string } }[]): void {
  list.forEach((a, i) => {
    if (!BASE64.test(a.SignedContent.Content)) throw invalid(`DocumentAttachments[${i}].SignedContent.Content`, 'must be valid base64');
    if (a.SignedContent.Signature !== undefined && !BASE64.test(a.SignedContent.Signature))
      throw invalid(`DocumentAttachments[${i}].SignedContent.Signature`, 'must be valid base64');
  });
}

/** Diadoc refuses `query` together with `afterIndexKey` on GetCounteragents. */
export function counteragents(q: { query?: string; afterIndexKey?: string }): void {
  if (q.query !== undefined && q.afterIndexKey !== undefined) throw invalid('query', 'cannot be combined with afterIndexKey');
}
