/**
 * Latin/Cyrillic look-alike resolution for OCR tokens read with `-l rus+eng`. Tesseract picks per character, so a
 * Latin model code comes back with Cyrillic twins ("НР СЕ283А" for "HP CF283A") and a Cyrillic word with Latin
 * ones ("Кaбель"). Each token is brought to one script, decided by the letters that exist in only one script
 * and by the token's shape. Pure; see docs/recognition-engine.md "Latin letters".
 */

/**
 * Russian letter → Latin letter of the same glyph (upper and lower case as printed in sans-serif fonts). The
 * Ukrainian/Macedonian і, ј, ѕ are left out on purpose: they never occur in Russian documents, so Latin i, j, s
 * prove a Latin word ("Arabica").
 */
const CYR_TO_LAT: Record<string, string> = {
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  х: 'x',
  у: 'y',
  к: 'k',
};
/** Latin letter → Cyrillic letter of the same glyph. */
const LAT_TO_CYR: Record<string, string> = Object.fromEntries(
  Object.entries(CYR_TO_LAT)
    .filter(([c]) => /[А-Яа-яЁё]/.test(c))
    .map(([c, l]) => [l, c]),
);

/**
 * Latin letters the eng model returns for Cyrillic glyphs of similar shape ("по" → "no", "и" → "u", "г" → "r",
 * "т" → "m" in some fonts): weak evidence. A token whose only Latin-only letters are these is decided by its
 * neighbours, and turned Cyrillic with the likeliest twin ("Macno" stays wrong: л → n has no single answer).
 */
const WEAK_LAT_TO_CYR: Record<string, string> = { n: 'п', u: 'и', r: 'г', m: 'т', b: 'ь', h: 'н' };

const isCyr = (ch: string) => /[А-Яа-яЁё]/.test(ch);
const isLat = (ch: string) => /[A-Za-z]/.test(ch);
/** Letters whose glyph exists in one script only: they prove the script of their token. */
const onlyCyr = (ch: string) => isCyr(ch) && !(ch in CYR_TO_LAT);
const onlyLat = (ch: string) => isLat(ch) && !(ch in LAT_TO_CYR);

/**
 * Whether a token has the shape of a model code or article: letters and digits mixed without a Cyrillic-only
 * letter ("CF283A", "A60", "R16", "94T", "5W-40"). Russian codes exist ("М500", "ВВГнг 3х2,5"), which is why
 * a token with a Cyrillic-only letter, or a short letter+digits token surrounded by Cyrillic words, stays Cyrillic.
 */
function looksLikeCode(token: string): boolean {
  return /\d/.test(token) && /[A-Za-zА-Яа-яЁё]/.test(token) && ![...token].some(onlyCyr);
}

/** Latin look-alikes of a text that is Cyrillic by nature (OKEI unit names "шт", "кг", "упак") turned Cyrillic. */
export const toCyrillic = (text: string): string => toScript(text, 'cyrillic');

/** Converts every look-alike letter of `token` to `to`; other characters stay. */
function toScript(token: string, to: 'latin' | 'cyrillic'): string {
  // Weak letters turn Cyrillic only inside a word that has no strong Latin letter left ("no" → "по", not "Arabica").
  const map = to === 'latin' ? CYR_TO_LAT : { ...LAT_TO_CYR, ...WEAK_LAT_TO_CYR };
  return [...token].map((ch) => map[ch] ?? ch).join('');
}

/** Script a token proves by itself: by its script-only letters (majority), else null (only look-alikes, weak letters or no letters). */
function ownScript(token: string): 'latin' | 'cyrillic' | null {
  const chars = [...token];
  const lat = chars.filter((ch) => onlyLat(ch) && !(ch in WEAK_LAT_TO_CYR)).length;
  const cyr = chars.filter(onlyCyr).length;
  if (lat === 0 && cyr === 0) return null;
  return lat > cyr ? 'latin' : 'cyrillic';
}

/**
 * Resolves look-alike letters in a phrase, token by token (tokens = whitespace-separated words):
 * - a token whose script-only letters are mostly Latin ("АгаЫса" has none, "Arabiса" has r, b, i) becomes Latin,
 *   mostly Cyrillic becomes Cyrillic;
 * - a token of look-alikes only is Latin when a token right beside it is Latin ("НР" before "CF283A": brands
 *   and model codes go together), else it takes the script of its nearest neighbour that proves one, left first;
 * - a token of look-alikes and digits in a model-code shape with no deciding neighbour ("СЕ283А", "А60") is Latin
 *   when a Latin token is in the phrase, or when the phrase has no Cyrillic-only letter at all, else Cyrillic
 *   ("М500" in "Цемент М500 мешок" stays Cyrillic);
 * - a lone look-alike token in a Cyrillic phrase stays Cyrillic ("А4" in "Бумага офисная А4"), and so does a
 *   short unit of look-alikes right after a number ("750 ВА" in "ИБП APC BX750MI, 750 ВА").
 * Digits, punctuation and letters that exist in one script are never changed, except the typography of
 * {@link DIMENSION_X} and {@link DEGREE_C}.
 * @param text a phrase such as a line-item name; returned unchanged when it has no letters.
 */
export function resolveLookalikes(text: string): string {
  const parts = text.split(/(\s+)/);
  const tokens = parts.map((p, i) => (i % 2 === 0 ? p : null));
  const own = tokens.map((t) => (t ? ownScript(t) : null));
  const codeShaped = tokens.map((t) => (t ? looksLikeCode(t) : false));
  const phraseHasLatin = own.includes('latin');
  const phraseHasCyr = own.includes('cyrillic');
  const decide = (i: number, codes: ('latin' | 'cyrillic' | null)[]): 'latin' | 'cyrillic' | null => {
    const s = own[i];
    if (s) return s;
    const t = tokens[i];
    if (!t || !/[A-Za-zА-Яа-яЁё]/.test(t)) return null;
    // A short unit after a number is Russian ("750 ВА", "12 В", "60 Ач"), whatever brand stands beside it.
    if (/^\d+(?:[.,]\d+)?$/.test(tokens[i - 2] ?? '') && /^[A-Za-zА-Яа-яЁё]{1,3}[.,;]?$/.test(t)) return 'cyrillic';
    // … and so is one glued to its number: kelvin, volt, ampere ("6500К", "220В", "60А"; "94T" is a tyre index).
    if (UNIT_AFTER_NUMBER.test(t)) return 'cyrillic';
    // Code-shaped tokens follow the phrase's Latin evidence first: "Лампа LED A60" keeps A60 Latin.
    if (codeShaped[i] && phraseHasLatin) return 'latin';
    if (own[i - 2] === 'latin' || own[i + 2] === 'latin') return 'latin';
    // A brand of look-alikes beside a model code made Latin goes with it ("AOC 27B2H, IPS").
    if (!codeShaped[i] && ((codeShaped[i - 2] && codes[i - 2] === 'latin') || (codeShaped[i + 2] && codes[i + 2] === 'latin'))) return 'latin';
    const neighbour = nearestDecided(own, i);
    if (neighbour) return neighbour;
    if (codeShaped[i]) return phraseHasCyr ? 'cyrillic' : 'latin';
    return null;
  };
  // Model codes first, so the words beside them can follow them.
  const codes = own.map((_, i) => (codeShaped[i] ? decide(i, []) : null));
  const decided = own.map((_, i) => (codeShaped[i] ? codes[i] : decide(i, codes)));
  // Second pass: pure look-alike words without a decided neighbour take one from a code now resolved ("НР СЕ283А").
  const final = decided.map((s, i) => s ?? (tokens[i] && /[A-Za-zА-Яа-яЁё]/.test(tokens[i]!) ? nearestDecided(decided, i) : null));
  return parts
    .map((p, i) => {
      const s = final[i];
      if (i % 2 === 1 || !s) return p;
      return toScript(p, s);
    })
    .join('')
    .replace(ZERO_AFTER_LETTERS, '0')
    .replace(DIMENSION_X, 'х')
    .replace(DEGREE_C, '°C');
}

/**
 * Typography that holds whatever script a token took: a multiplication sign between digits is the Cyrillic "х"
 * Russian catalogues print ("3х1,5" also in "Кабель NYM-J 3х1,5", whose Latin brand made the token Latin), and the
 * Celsius sign after a degree is the Latin C.
 */
const DIMENSION_X = /(?<=\d)x(?=\d)/g;

/**
 * A letter O between the letters and the zeros of an article ("ATNO00124"): the digits of a code are one run, and a
 * run that goes on with zeros began with one. Only before a zero, so "PRO100" and "SO2" keep their letter.
 */
const ZERO_AFTER_LETTERS = /(?<=\p{L})[OО](?=0\d*(?:[,.;]|$|\s))/gu;

/** A number with a unit letter glued to it: kelvin, volt or ampere, printed with the Cyrillic letter. */
const UNIT_AFTER_NUMBER = /^\d+[KКBВAА][.,;]?$/;
const DEGREE_C = /°\s?С/g;

function nearestDecided(scripts: ('latin' | 'cyrillic' | null)[], i: number): 'latin' | 'cyrillic' | null {
  for (let d = 2; d < scripts.length; d += 2) {
    const left = scripts[i - d];
    if (left) return left;
    const right = scripts[i + d];
    if (right) return right;
  }
  return null;
}
