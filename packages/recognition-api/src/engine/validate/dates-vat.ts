/**
 * Document dates (Spec: Validation rule 4, DD.MM.YYYY) and the VAT rates in force on a date (rule 5, extended
 * to the law as it changed: 18 % until 2018-12-31, 20 % from 2019-01-01, 22 % from 2026-01-01; 10 % and 0 %
 * throughout; 5 % and 7 % for simplified-tax payers from 2025-01-01). "без НДС" is carried as `nds_exempt`.
 */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Parses a DD.MM.YYYY string into a real calendar date, or null (wrong format or e.g. 31.02). */
export function parseDocumentDate(s: string): CalendarDate | null {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(s);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return { year, month, day };
}

const ymd = (d: CalendarDate): number => d.year * 10000 + d.month * 100 + d.day;

/** VAT rates (percent) lawful on `date`; when the date is unknown every rate that has been lawful since 2019. */
export function vatRatesInForce(date: CalendarDate | null): number[] {
  if (!date) return [0, 5, 7, 10, 20, 22];
  const n = ymd(date);
  const rates = [0, 10];
  if (n < 20190101) rates.push(18);
  else if (n < 20260101) rates.push(20);
  else rates.push(22);
  if (n >= 20250101) rates.push(5, 7);
  return rates.sort((a, b) => a - b);
}
