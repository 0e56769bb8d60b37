/**
 * Dates as Russian documents print them, numeric ("12.03.2026") or in words ("12 марта 2026 г.",
 * "«12» марта 2026 г.", "\"12\" марта 2026", nominative "12 март 2026"), normalised to the spec's DD.MM.YYYY
 * (Spec: Recognised data, document.date; Validation 4). Pure.
 */

const NUMERIC_RE = /(\d{1,2})[.,](\d{1,2})[.,](\d{4})/;

/**
 * Month stems with every grammatical case ending (nominative, genitive, dative, instrumental, prepositional):
 * "январь/января/январю/январём/январе", "май/мая/маю/маем/мае", "март/марта/марту/мартом/марте".
 */
const MONTHS: [RegExp, number][] = [
  [/^январ(ь|я|ю|ем|ём|е)$/, 1],
  [/^феврал(ь|я|ю|ем|ём|е)$/, 2],
  [/^март(а|у|ом|е)?$/, 3],
  [/^апрел(ь|я|ю|ем|е)$/, 4],
  [/^ма(й|я|ю|ем|е)$/, 5],
  [/^июн(ь|я|ю|ем|е)$/, 6],
  [/^июл(ь|я|ю|ем|е)$/, 7],
  [/^август(а|у|ом|е)?$/, 8],
  [/^сентябр(ь|я|ю|ем|ём|е)$/, 9],
  [/^октябр(ь|я|ю|ем|ём|е)$/, 10],
  [/^ноябр(ь|я|ю|ем|ём|е)$/, 11],
  [/^декабр(ь|я|ю|ем|ём|е)$/, 12],
];

/** Latin letters OCR puts into Cyrillic month names ("мapтa"): folded back before matching. */
const LATIN_TWINS: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у', k: 'к', m: 'м', t: 'т', h: 'н', b: 'в' };

/** Month number 1–12 of a Russian month name in any case (OCR Latin twins tolerated), else null. */
export function monthNumber(word: string): number | null {
  const w = word
    .toLowerCase()
    .replace(/[a-z]/g, (ch) => LATIN_TWINS[ch] ?? ch)
    .replace(/[.,;:]+$/, '');
  return MONTHS.find(([re]) => re.test(w))?.[1] ?? null;
}

/**
 * Day, month word and year: the day may sit in guillemets or straight/curly quotes, with OCR spaces inside
 * ("«12 »", "« 12»", "<<12>>", "\"12\"", "„12“"); the year may carry "г."/"года" or be glued to it ("2026г.").
 */
const WORDS_RE = /(?:^|[^\d])(\d{1,2})\s*(?:[»"”“'’]|>>)?\s*([A-Za-zА-Яа-яЁё]{3,9})[.,]?\s+(\d{4})(?!\d)/;

const valid = (d: number, m: number, y: number) => d >= 1 && d <= 31 && m >= 1 && m <= 12 && y >= 1900 && y <= 2100;
const fmt = (d: number, m: number, y: number) => `${String(d).padStart(2, '0')}.${String(m).padStart(2, '0')}.${y}`;

/**
 * Digits a blurred print reads for one another (a 0 whose bowl closed into a 9, 8 or 6; a 3 and an 8; a 1 and a 7),
 * for {@link normalizeDate}'s repair of a day or month that no calendar has.
 */
const DIGIT_LOOKALIKE: Record<string, string> = { '0': '689', '9': '0', '8': '03', '6': '0', '3': '8', '1': '7', '7': '1' };

/**
 * A day and month (two digits each) with one digit read for its look-alike ({@link DIGIT_LOOKALIKE}) so the date
 * exists (`14.93` → `14.03`), when exactly one such change does; null otherwise.
 */
function mendDayMonth(day: string, month: string, year: number): [string, string] | null {
  const digits = [...(day + month)];
  const found: [string, string][] = [];
  digits.forEach((c, i) => {
    for (const alt of DIGIT_LOOKALIKE[c] ?? '') {
      const t = [...digits.slice(0, i), alt, ...digits.slice(i + 1)].join('');
      if (valid(Number(t.slice(0, 2)), Number(t.slice(2)), year)) found.push([t.slice(0, 2), t.slice(2)]);
    }
  });
  return found.length === 1 ? found[0] : null;
}

/**
 * "2.3.2026" / "02,03.2026" → "02.03.2026"; null when not a numeric date. A day or month no calendar has
 * (`14.93.2026`: a photo's blurred 0 read as 9) becomes the only valid date one look-alike digit away
 * ({@link mendDayMonth}); with none or several it is returned as read, for validation to report.
 */
export function normalizeDate(text: string): string | null {
  const m = NUMERIC_RE.exec(text);
  if (!m) return null;
  const day = m[1].padStart(2, '0');
  const month = m[2].padStart(2, '0');
  const year = Number(m[3]);
  if (valid(Number(day), Number(month), year)) return `${day}.${month}.${m[3]}`;
  const mended = mendDayMonth(day, month, year);
  return mended ? `${mended[0]}.${mended[1]}.${m[3]}` : `${day}.${month}.${m[3]}`;
}

/** "«12» марта 2026 г." (any case, quote style, OCR spacing) → "12.03.2026"; null when no date in words is found. */
export function parseWordDate(text: string): string | null {
  const m = WORDS_RE.exec(text);
  if (!m) return null;
  const month = monthNumber(m[2]);
  const d = Number(m[1]);
  const y = Number(m[3]);
  return month && valid(d, month, y) ? fmt(d, month, y) : null;
}

/** Field confidence (0..1) at most of a date {@link normalizeDate} mended: a likely reading, not what was read. */
export const MENDED_DATE_CONFIDENCE = 0.5;

/** Whether {@link normalizeDate} mends `text`'s numeric date (its day or month as read is none of a calendar's). */
export function isMendedDate(text: string): boolean {
  const m = NUMERIC_RE.exec(text);
  return (
    m != null && !valid(Number(m[1]), Number(m[2]), Number(m[3])) && mendDayMonth(m[1].padStart(2, '0'), m[2].padStart(2, '0'), Number(m[3])) != null
  );
}

/**
 * A document date in either form, normalised to DD.MM.YYYY: numeric first (the usual form), then in words.
 * @param text the words after "от" or in a date box, joined with spaces.
 * @returns the date, or null when neither form is present.
 */
export function parseDate(text: string): string | null {
  return normalizeDate(text) ?? parseWordDate(text);
}
