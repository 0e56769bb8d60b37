/**
 * Parsing of numbers as Russian documents print them: digit groups split by spaces or no-break spaces
 * ("1 234 567,89"), decimal comma (a point is accepted too), and the OCR confusions that turn digits into
 * look-alike letters (О→0, З→3, б→6, l/I→1). Spec: Recognised data (amounts in roubles, kopecks as decimals).
 */

const LOOKALIKE: Record<string, string> = {
  О: '0',
  о: '0',
  O: '0',
  o: '0',
  З: '3',
  з: '3',
  б: '6',
  l: '1',
  I: '1',
  '|': '1',
  S: '5',
  B: '8',
  В: '8',
};

/** Replaces letter look-alikes of digits, only inside a token that is otherwise numeric. */
function fixLookalikes(token: string): string {
  if (!/\d/.test(token)) return token;
  return token.replace(/[ОоOoЗзбlIS|BВ]/g, (c) => LOOKALIKE[c] ?? c);
}

/**
 * Whether a word of a numeric cell is part of the number: it holds a digit, or it is a short digit group read as
 * look-alikes only ("З00" has a digit; "S" or "ОО" alone stand for 5 and 00; "$" for a blurred leading 5).
 */
export const isDigitGroup = (token: string): boolean => /\d/.test(token) || /^[ОоOoЗзбlIS|BВ$]{1,3}$/.test(token);

/** The digits of a number as read, look-alike letters inside its digit groups counted as their digits ("1О5 ЗО" → "10530"). */
export const digitsOf = (text: string): string => text.split(/\s+/).map(fixLookalikes).join('').replace(/\D/g, '');

/**
 * Parses one printed number: "1 234,56", "1 234,56", "12", "2,500", "1234.5" → number, or null when the text
 * is not a number (empty, "--", "без НДС"). Spaces are only accepted between groups of three digits, so two
 * separate numbers are never glued. A trailing comma/point or a leading "-" dash artefact is tolerated.
 */
export function parseRuNumber(text: string): number | null {
  let t = text.replace(/[\u00a0\u202f\u2009]/g, ' ').trim();
  // A leading dash or a rule remnant glued to the value ("_1 250,00", "801,44_") is not part of the number.
  t = t
    .replace(/^[|│¦_]+(?=\d)/, '')
    .replace(/(?<=\d)[|│¦_]+$/, '')
    .replace(/^[—–-]\s*(?=\d)/, '')
    .replace(/[.,]$/, '');
  // A lone "З" or "б" in a numeric cell is a 3 or a 6 whose glyph the rus model took for the letter (a quantity
  // "3" read "З" at 20 %); the line arithmetic then checks it. "О" alone stays unread: rings and bullets look like it.
  if (/^[Ззб]$/.test(t)) t = LOOKALIKE[t];
  t = t
    .split(' ')
    // A blurred leading 5 comes back as "$" ("$ 586,46", "$10,54"); after digits it is a speck, not a digit.
    .map((g, k, groups) => fixLookalikes(k === 0 && (groups.length > 1 || /^\$\d/.test(g)) ? g.replace(/^\$/, '5') : g))
    .join(' ');
  const m = /^(\d+(?: \d{3})*)(?:[,.](\d+))?$/.exec(t);
  if (!m) return null;
  const int = m[1].replace(/ /g, '');
  return Number(m[2] ? `${int}.${m[2]}` : int);
}

/** A money amount: a number with at most two decimals (kopecks); "без НДС" and dashes give null. */
export function parseMoney(text: string): number | null {
  // "7 733 90": groups of three and a last group of two are roubles and kopecks whose comma a photo lost; no
  // Russian amount prints a two-digit group otherwise. At least one full thousands group is required: "28 38" is as
  // likely "828,38" with a digit lost as "28,38".
  const lost = /^(\d{1,3}(?: \d{3})+) (\d{2})$/.exec(text.replace(/[\u00a0\u202f\u2009]/g, ' ').trim());
  if (lost) return Number(`${lost[1].replace(/ /g, '')}.${lost[2]}`);
  const n = parseRuNumber(text);
  if (n == null) return null;
  const dec = /[,.](\d+)[|│¦_]*$/.exec(text.trim());
  return dec && dec[1].length > 2 ? null : n;
}

/** VAT rate cell: "20%", "22 %", "10", "20/120" → 20, 22, 10, 20; "без НДС" → 'exempt'; otherwise null. */
export function parseRate(text: string): number | 'exempt' | null {
  const t = text.replace(/\s+/g, ' ').trim().toLowerCase();
  if (/без\s*ндс|^без/.test(t)) return 'exempt';
  // A rule remnant glued to the value ("_22%", "|10%") is the cell's border, not part of the rate.
  const m = /^(\d{1,2})\s*(?:%|\/\s*1\d{2})?/.exec(fixLookalikes(t.replace(/^[|│¦_!]+/, '')).replace(/^[—–-]/, ''));
  if (!m) return null;
  const r = Number(m[1]);
  return [0, 5, 7, 10, 18, 20, 22].includes(r) ? r : null;
}

/** True when the text says "без НДС" (a VAT-exempt amount or rate cell). */
export const isExemptText = (text: string): boolean => /без\s*ндс/i.test(text);

/** Integer line number ("1", "12.", "3)") or null. */
export function parseLineNumber(text: string): number | null {
  const m = /^(\d{1,3})[.)]?$/.exec(fixLookalikes(text.trim()));
  return m ? Number(m[1]) : null;
}
