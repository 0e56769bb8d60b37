import { invalid } from '../errors.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Turns the list filters `from`/`to` into a half-open UTC range [from, to) on `created_at`.
 * A plain date is a whole UTC day: `from=2026-11-01` starts at 00:00Z, `to=2026-11-30` includes all of the 30th.
 * A date-time with an offset is an instant; `to` is then inclusive. Throws VALIDATION_ERROR naming the parameter.
 */
export function parseListBound(name: 'from' | 'to', raw: string | undefined): Date | undefined {
  if (raw === undefined) return undefined;
  const isDate = DATE_ONLY.test(raw);
  if (!isDate && !DATE_TIME.test(raw)) throw invalid(name, 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with offset');
  const t = new Date(isDate ? `${raw}T00:00:00Z` : raw);
  if (Number.isNaN(t.getTime()) || (isDate && t.toISOString().slice(0, 10) !== raw)) throw invalid(name, 'is not a valid date');
  if (name === 'from') return t;
  return new Date(t.getTime() + (isDate ? 86_400_000 : 1));
}
