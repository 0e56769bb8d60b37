/**
 * Russian tax ids. INN: 10 digits (organisations) or 12 (individuals) with check digits per the Federal Tax
 * Service algorithm (weighted sum mod 11 mod 10). KPP: 9 characters, `NNNN PP NNN` where the reason code PP may
 * hold capital Latin letters since 2013. Spec: Validation rule 3 (length); check digits and KPP go beyond it.
 */
const W10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const W11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const W12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

function checkDigit(digits: number[], weights: number[]): number {
  const sum = weights.reduce((acc, w, i) => acc + w * digits[i]!, 0);
  return (sum % 11) % 10;
}

/** True when `inn` is 10 or 12 digits (the spec's rule, no checksum). */
export function innHasValidLength(inn: string): boolean {
  return /^(\d{10}|\d{12})$/.test(inn);
}

/** True when a 10- or 12-digit INN's check digit(s) match. Call only after {@link innHasValidLength}. */
export function innChecksumOk(inn: string): boolean {
  const d = [...inn].map(Number);
  if (d.length === 10) return checkDigit(d, W10) === d[9];
  return checkDigit(d, W11) === d[10] && checkDigit(d, W12) === d[11];
}

/** True when `kpp` matches `\d{4}[\dA-Z]{2}\d{3}`. */
export function kppFormatOk(kpp: string): boolean {
  return /^\d{4}[\dA-Z]{2}\d{3}$/.test(kpp);
}
