import { AMBIGUOUS_NAME_CONFIDENCE, nameConfidenceCap } from '../confidence/doubtful-fields.js';
import type { LineItem } from '../engine.port.js';
import type { FormColumns, ItemField } from './columns.js';
import { isDigitGroup, isExemptText, parseLineNumber, parseMoney, parseRate, parseRuNumber } from './numbers.js';
import { applyNameRules } from './name-rules.js';
import { readsLookalike } from './russian-words.js';
import { resolveLookalikes, toCyrillic } from './script.js';
import type { Cell, RawRow } from './table.js';

/** Field path → confidence 0..1 (the lowest Tesseract word confidence in the field's cell / 100). */
export type FieldConfidence = Record<string, number>;

const DASH = /^[\s—–\-_.]*$/;

/** Minimum word confidence of a cell as 0..1; an empty cell is 0. */
export function cellConfidence(cell: Cell | undefined): number {
  if (!cell || cell.words.length === 0) return 0;
  return Math.max(0, Math.min(...cell.words.map((w) => w.conf))) / 100;
}

/**
 * A point after a unit symbol written after its number (`10 мм.`, `2 кВт.`, `30 м.`), before another word or a
 * number. Not after `г` (`2020 г.` is a year) nor `шт` (`250 шт.` is printed with its point).
 */
const UNIT_POINT = /(?<=\d\s?(?:мм|см|км|кг|мл|Вт|кВт|ВА|Ач|ГБ|МБ|ТБ|(?:к?г\/|Вт\/)?[смк]?м[²³]?|л|°C))\.(?= [\p{L}\d])/gu;

/** A point before the reference of a standard (`…646. ГОСТ 18188`), after a word or a number: a name lists it after a comma. */
const STANDARD_POINT = /(?<=[\p{L}\d]{2})\.(?= (?:ГОСТ|ОСТ|ТУ|СТО)\s)/gu;

/** Units printed after a number in a name, for {@link unitLookalike}. */
const NAME_UNITS = ['г', 'кг', 'мг', 'т', 'л', 'мл', 'м', 'мм', 'см', 'км', 'шт', 'уп', 'Вт', 'кВт', 'В', 'А', 'Ач', 'ВА'];

/** Whether `word` is a unit symbol a name prints after a number ({@link NAME_UNITS}: `кг`, `Вт`, `мм`), exactly. */
export function isNameUnit(word: string): boolean {
  return NAME_UNITS.includes(word);
}

/**
 * Whether `word` is a unit per unit as names print them after a number (`Вт/м`, `г/м²`, `кг/м³`, `л/мин`): two
 * {@link NAME_UNITS} (or a time unit after the slash) around one slash, a square or cube mark on the second allowed.
 */
export function isUnitRatio(word: string): boolean {
  const parts = word.split('/');
  return parts.length === 2 && isNameUnit(parts[0]) && (isNameUnit(parts[1].replace(/[²³]$/, '')) || ['с', 'ч', 'мин', 'сут'].includes(parts[1]));
}

/**
 * The unit of {@link NAME_UNITS} that `word` (read after a number) is one look-alike letter away from
 * (russian-words.ts `readsLookalike`: `Вг` → `Вт`, `п` → `л`), when there is exactly one; null for a unit itself,
 * for a word with none (`на`, `до`) or with two.
 */
export function unitLookalike(word: string): string | null {
  if (NAME_UNITS.includes(word)) return null;
  const near = NAME_UNITS.filter(
    (u) =>
      u.length === word.length &&
      [...u].filter((c, i) => c !== word[i]).length === 1 &&
      [...u].every((c, i) => c === word[i] || readsLookalike(word[i], c)),
  );
  return near.length === 1 ? near[0] : null;
}

/** A size "a×b(×c)" of figures, S and O only (`SxS`, `5х5O`), its marks read as Latin or Cyrillic x. */
const SIZE_OF_LETTERS = /^[\dSOО]+(?:[хx][\dSOО]+)+(?=[,.;)]*$)/;

/**
 * The same size in a blurred photo, where a 6 also reads as `б` and a multiplication sign as `к` (`бООх3О0к8`):
 * taken for a size only with two figures or more and one true multiplication sign, so no word (`бок`) is one.
 */
const SIZE_BLURRED = /^[\dSOОб]+(?:[хxк][\dSOОб]+)+(?=[,.;)]*$)/;
const isBlurredSize = (word: string) => SIZE_BLURRED.test(word) && /[хx]/.test(word) && (word.match(/\d/g)?.length ?? 0) >= 2;

/**
 * A model code's zeros and fives as printed, where OCR read them as letters: Latin `O` or Cyrillic `О` in a run of
 * digits and O's that holds at least two digits and is not followed by a lower-case letter (`ATNOOO124`,
 * `GDB1S5O`, `В-41ОА`; not `10Ом`), and a Latin `S` after a digit and before a digit or such an O (`BX7SOMI`); no
 * code puts those letters there. Only in words without a lower-case Cyrillic letter (codes, not Russian words); a
 * lone O beside one digit (`O2`) and an S after the digits (`MLT-D111S`) stay. A size of figures and those letters
 * only ({@link SIZE_OF_LETTERS}: `SxS мм`; {@link SIZE_BLURRED}: `бООх3О0к8`) is all figures.
 */
export function codeDigits(text: string): string {
  return text.replace(/\S+/g, (word) =>
    SIZE_OF_LETTERS.test(word) || isBlurredSize(word)
      ? word.replace(/[SOОxхбк]/g, (c) => ({ S: '5', O: '0', О: '0', б: '6' })[c] ?? 'х')
      : /[а-яё]/.test(word)
        ? word
        : word
            .replace(/(?<=\d)S(?=[\dOО])/g, '5')
            .replace(/[0-9OО]+(?![a-zа-яё])/g, (run) => ((run.match(/\d/g)?.length ?? 0) >= 2 ? run.replace(/[OО]/g, '0') : run)),
  );
}

/**
 * Cleans a name cell: drops rule fragments, stray dashes and single angle quotes at its ends, normalises quote
 * pairs that OCR splits ("<<", ">>"), W.
 * Photo OCR's classes of error in names are fixed here too, each only where the name itself proves it: an opening
 * quote with no closing one (a speck read as “), a decimal point in a name that prints its other fractions with the
 * Russian comma ({@link DECIMAL_POINT}), an SAE viscosity "5М/-40" (the rus model's W), the Latin C after a degree
 * sign, the superscript of м² read as "?" or "-", a multiplication sign glued to its unit ("ммх 50" → "мм х 50"), a
 * space OCR put after a multiplication sign glued to the size before it ("2500х 1250х12"),
 * "@", "©" or a lone "б" before a size for the diameter sign Ø, a clothing size L read as its mirror Г after "размер",
 * a point after a whole word, after a unit symbol or a model code, before a standard or between two numbers read
 * for a comma, "мы" after a number for "мм", a unit one look-alike letter off ({@link unitLookalike}), "ж" between
 * digits for "х", a lone "$" for 5, "}" closing a round bracket, and a trailing comma; since 2026-11-29 (3) also
 * "*" for the degree sign before C, "%" and "$" inside a size chain ("90%90х90", "5х$"), "мам" and "мых" for мм,
 * a bracket for the J after a Latin code's hyphen ({@link LATIN_J}) and "Я}" for its RJ, a grave accent, and an
 * opening quote with nothing to close it wherever it stands; since 2026-11-29 (6) also a lone "к" after a number
 * ending a part for "кг", "к" between a length and a number for "х", "у" for the slash of a unit per unit ("Втум" for Вт/м), a
 * colon for the superscript of м², "мы" before a quote, a backslash between figures for "х" and "&" between Russian
 * words for 4; since 2026-12-01 the rules standards and print conventions make certain ({@link applyNameRules}).
 * Case is kept as read (names may begin lower-case, "п/э пакет", and a forced capital changed nothing a reader needs).
 */
export function cleanName(text: string): string {
  // The rus model has no Latin W and returns it as slashes ("5W-40" → "5\\/-40"); Cyrillic text never has "\\/".
  const cleaned = text
    .replace(/\\+\/+/g, 'W')
    // … or, on photos, as "М/" or "\\М/" in an SAE viscosity grade ("5М/-40", "10М/-40"); only there, because
    // "3М/50" (a brand and a length) is printed so.
    .replace(/(?<=(?:^|[\s(])\d{1,2})\\?[МM]\/(?=-\d{2}(?!\d))/g, 'W')
    .replace(/[|│¦]/g, ' ')
    // A grave accent is a speck read as a glyph: names print no such character.
    .replace(/`/g, '')
    .replace(/<<|«\s+/g, '«')
    .replace(/>>|\s+»/g, '»')
    // A single angle quote (‹ ›) is a speck: Russian names quote with «» and never open with a lone angle.
    .replace(/^[—–\-\s(|)‹›]+|[—–\-\s(|‹]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[“”„"'‘’«]\s*(?=[^“”„"'‘’«»]*$)/, '')
    // … or before a later word ("обратная „полярность"): an opening quote with no quote of any kind after it.
    .replace(/(?<=\s)[„“«](?=[^“”„"'‘’«»]*$)/, '')
    .replace(/°\s?С/g, '°C') // the degree sign is followed by Latin C (°С with Cyrillic С is a look-alike)
    // A length unit after a number returned in Latin by the eng reading ("2х0,75 mm?"): in a Russian name it is мм, м or
    // см (the superscript after it is read below).
    .replace(/(?<=[а-яё].*\d\s?)(?:mm|cm|m)(?=[?'’"²-]?(?:[\s,.;)]|$))/g, (unit) => ({ mm: 'мм', cm: 'см', m: 'м' })[unit] ?? unit)
    // … which the rus model may read as "*": an asterisk before C after a number is no footnote mark ("-18 *С").
    .replace(/(?<=\d\s?)\*\s?[СC](?=[\s,.;)]|$)/g, '°C')
    // A multiplication sign read as "%" inside a size chain, glued to the figures on both sides ("90%90х90",
    // "600х300%200"): a percentage is never followed by a figure with no space, so "5% 10х20" keeps its sign.
    .replace(/(?<=(?:^|\s)\d+)%(?=\d+[хx]\d)/g, 'х')
    .replace(/(?<=\d[хx]\d+)%(?=\d)/g, 'х')
    // A "$" ending a size chain after its multiplication sign ("5х$ мм") is the rus model's 5 (see the lone "$" below).
    .replace(/(?<=\d[хx])\$(?=[\s,.;)]|$)/g, '5')
    // The superscript of м²/см²/мм² read as "?", "-" or a quote at the end of the unit; "10 м-20" (a range) keeps its dash.
    .replace(/(?<=(?:\d\s?|\/)[смк]?м)[?'’"-](?=[\s,.;)]|$)/g, '²')
    // … or as a colon ending the name or a part of it ("12 м:", "0,5 мм:, серый"): nothing follows such a colon.
    .replace(/(?<=\d\s?[смк]?м):(?=[,;)]|$)/g, '²')
    // … or as "г" on a sharpened scan: "ммг", "смг" are no units and "г/мг" no measure; "10 мг" (milligrams) stays.
    .replace(/(?<=(?:\d\s?[смк]|г\/)м)г(?=[\s,.;)]|$)/g, '²')
    // "48 мм х 50 м": the multiplication sign keeps its spaces; photo OCR glues it to the unit ("48 ммх 50 м").
    .replace(/(?<=\d\s?[смк]?м)х(?=\s\d)/g, ' х')
    // … while a size glued to its sign before it has no space after it either: "1380х 193х8" is a space OCR put in.
    .replace(/(?<=\d[хx]) (?=\d)/g, '')
    // The diameter sign Ø has no glyph in the rus model, which returns "@" or "©" before the size.
    .replace(/(?<=^|\s)[@©](?=\s?\d|$)/g, 'Ø')
    // "б/у", "б/г", "б/н" (без …): the rus model reads the б as a 6, which never stands before "/" and a letter.
    .replace(/(?<=^|[\s(])6\/(?=[а-яё])/g, 'б/')
    // "г/т?" is "г/м²" with the м read as т: there is no т² unit.
    .replace(/(?<=\/)т[?²]/g, 'м²')
    // … or as a lone "б" (the rus model's nearest glyph for the slashed circle): no Russian word is a lone б before a size.
    .replace(/(?<=^|\s)б(?=\s\d)/g, 'Ø')
    // A clothing size after "размер" is Latin (S, M, L, XL); the rus model has no L and returns its mirror Г.
    .replace(/(?<=(?:^|\s)[Рр]азмер[а-я]*\s(?:[XХ]{1,3})?)Г(?=[\s,;]|$)/g, 'L')
    // The rus model has no Latin N and may return "№" for it; glued between a Latin capital and a digit it is the N
    // of a code ("AK№000517"), never a number sign, which stands before a number with or without a space.
    .replace(/(?<=[A-Z])№(?=\d)/g, 'N')
    // … nor R, returned as its mirror Я, nor J, returned as a bracket, a slash or a bar (a space by now): "Я}-45",
    // "Я/-45" and, with the R read right, "R}-45" are a code's "RJ-45"; no Russian word is a capital Я with a bracket,
    // a slash or a space before a hyphen and a number.
    // A scan may read the R as B (its leg lost) before the same slash: "B/-45"; no code has a B with a slash before a hyphen.
    .replace(/(?<=^|\s)(?:Я[}\])/ ]|[RBВ][}\])/])(?=-\d)/g, 'RJ')
    // A name ends with a word, a figure, a unit or a closing bracket or quote, never with a comma: a speck after the last word.
    .replace(/\s*[,;]$/, '')
    // A point after a whole word (five letters or more), before a lower-case word or a number, is a comma whose tail
    // the blur took ("Rotband. 30 кг"): names list their parts with commas, and only short abbreviations take a
    // point there ("рис. 424", "уп. 200", "кат. 5e").
    .replace(/(?<=(?:^|[\s«"(])\p{L}{5,})\.(?= [\p{Ll}\d])/gu, ',')
    // "мы" after a number is the unit мм with its second м misread: the pronoun never follows a dimension.
    .replace(/(?<=\d\s?)мых(?=\s\d)/g, 'мм х') // … glued to the multiplication sign before the next figure
    .replace(/(?<=\d\s?)мы(?=[\s,.;)"'’]|$)/g, 'мм')
    // … and "мам", "мим", "мым" are мм with a blurred gap between its two letters read as a vowel: no such word
    // follows a dimension.
    .replace(/(?<=\d\s?)м[аиы]м(?=[\s,.;)]|$)/g, 'мм')
    // A lone "к" after a number at the end of the name or of one of its parts is "кг" whose "г" was lost at the cell's
    // edge or in the blur: "к" after a number is a preposition only before another number ("переходник 1/2 к 3/4").
    .replace(/(?<=\d\s)к(?=[,;)]|$)/g, 'кг')
    // A spaced multiplication sign between two dimensions read as "к" ("25 мм к 10 м"): the preposition never stands
    // between a length and a number.
    .replace(/(?<=\d\s?[смк]?м) к (?=\d)/g, ' х ')
    // A unit per unit whose slash the blur turned into "у" ("24 Втум", "250 гум²"): no word is two unit symbols around a у.
    .replace(/(?<=\d\s?)[А-Яа-яЁё]{1,3}у[А-Яа-яЁё]{1,3}[²³]?(?=[\s,.;)]|$)/g, (word) => {
      const ratio = word.replace('у', '/');
      return isUnitRatio(ratio) ? ratio : word;
    })
    // A short word after a number that is no unit but one look-alike letter from exactly one ("50 Вг", "10 п").
    .replace(/(?<=\d\s)[А-Яа-яЁё]{1,3}(?=[\s,.;)]|$)/g, (word) => unitLookalike(word) ?? word)
    // A point after a unit symbol that follows its number is a comma too ("200х300 мм. глянцевая"), since unit
    // symbols take no point in Russian, and so is one after a number before another ("Moment 40. 125 мл"): a
    // decimal point has no space.
    .replace(UNIT_POINT, ',')
    .replace(STANDARD_POINT, ',')
    .replace(/(?<=\d)\.(?= \d)/g, ',')
    // … or after a number before a lower-case word ("М150. красный"): a name has no sentence to end there.
    .replace(/(?<=\d)\.(?= \p{Ll})/gu, ',')
    // "600х300ж200": a multiplication sign read as ж, which never stands between two digits.
    .replace(/(?<=\d)[жЖ](?=\d)/g, 'х')
    // … or as a backslash ("2\\0,75 мм²"), which no name prints between two figures (an asterisk may be printed: "4*2*0,5").
    .replace(/(?<=\d)\\(?=\d)/g, 'х')
    // A 4 read as "&" between two Russian words ("тройник на & отвода"): Russian names join words with "и", not "&".
    .replace(/(?<=[а-яё,]\s)&(?=\s[а-яё])/g, '4')
    // The rus model reads a 5 as "$", a sign no Russian name prints before a word or alone.
    .replace(/(?<=^|\s)\$(?=\s\p{L}|[\s,]|$)/gu, '5')
    // A point after a model code before a lower-case word or a number ("BX750MI-GR. 750 ВА"): a comma, as after a number.
    .replace(/(?<=\d[\p{L}\d-]*)\.(?= [\p{Ll}\d])/gu, ',');
  const closed = closeBracket(applyNameRules(cleaned)).replace(LATIN_J, (glyph, at: number, name: string) =>
    openBrackets(name.slice(0, at)) > 0 ? glyph : 'J',
  );
  return /\d,\d/.test(closed) ? closed.replace(DECIMAL_POINT, '$1,$2') : closed;
}

/**
 * A closing bracket ending a Latin code after its hyphen (`NYM-)`, `NYM-}`): neither model has a glyph as narrow as
 * the J of `NYM-J`, and both put a bracket for it; a bracket that closes one opened before it stays.
 */
const LATIN_J = /(?<=(?:^|\s)[A-Z][A-Z\d]*-)[)}\]](?=[\s,;]|$)/g;

/** How many round brackets of `text` are open at its end. */
const openBrackets = (text: string) => (text.match(/\(/g)?.length ?? 0) - (text.match(/\)/g)?.length ?? 0);

/**
 * A name with an opening bracket and no closing one whose last "}" or "]" after it is the ")" photo OCR misread
 * ("(уп. 100 шт.}"): a name never opens a round bracket to close it with another kind.
 */
function closeBracket(name: string): string {
  const open = name.lastIndexOf('(');
  if (open < 0 || name.indexOf(')', open) >= 0) return name;
  return name.replace(/[}\]](?=[^}\]]*$)/, (c) => (name.lastIndexOf(c) > open ? ')' : c));
}

/**
 * A decimal point between digits of a Russian name that prints its other fractions with a comma ("125х1,2х22.23")
 * is the comma photo OCR read as a point. A name without a decimal comma keeps its points: catalogues print
 * "USB 3.0", "802.11ac" and "3.5х35" too. Only a single fraction group (1–2 digits not followed by another
 * point and digit), so dates and version-like "1.2.3" stay; nor a number after a Latin word or before Latin
 * letters ("USB 3.0", "802.11ac").
 */
const DECIMAL_POINT = /(?<=[а-яё].*)(?<![\d.]|[A-Za-z][\s-]?)(\d{1,3})\.(\d{1,2})(?![\d.A-Za-z])/gi;

/**
 * A four-digit number with a leading zero standing alone in a name ("Блок 0600 625х250"): no quantity or size is
 * printed so. The rus model has no Latin D and reads it as a zero (an O it reads as О), so the first digit is the D
 * of a grade such as D500/D600. Not a zero followed by a space ("0 986 452", a catalogue number) or a comma.
 */
const ZERO_FOR_D = /(?<=^|\s)0(?=\d{3}(?:[\s,;]|$))/;

/**
 * An item name as printed from its cell text: model codes' digits ({@link codeDigits}), cleaned, look-alike letters
 * brought to one script per word ({@link resolveLookalikes}), then cleaned again, because "6/r" and "r/m?" become
 * "б/г" and "г/м²" only once they are Cyrillic, and a zero-led number read back as its D ({@link ZERO_FOR_D}).
 * `photo`: read from a phone photo, where Tesseract cannot tell a blurred comma from a point, so every decimal
 * point of the Russian kind ({@link DECIMAL_POINT}: not in "USB 3.0", "802.11ac", "1.2.3") is taken for the
 * Russian decimal comma, as on the printed page; an asterisk between figures for the multiplication sign; and a
 * lower-case unit glued to its number gets its space back ({@link GLUED_UNIT}).
 */
export function itemName(cell: string, photo = false): string {
  const name = cleanName(resolveLookalikes(cleanName(codeDigits(cell)))).replace(ZERO_FOR_D, 'D');
  if (!photo) return name;
  // An asterisk between two figures is the multiplication sign ("2*0,75 мм²"): a blurred х reads as one, and a photo
  // cannot tell it from the asterisk some catalogues print ("4*2*0,5"), which scans and clean prints keep.
  return name
    .replace(DECIMAL_POINT, '$1,$2')
    .replace(/(?<=\d)\*(?=\d)/g, 'х')
    .replace(GLUED_UNIT, ' ');
}

/**
 * The place between a number (or a size chain, `2х0,75`) and a lower-case unit symbol glued to it (`2,5л`, `25кг`,
 * `2х0,75мм`): names print a space there, and a photo's OCR loses it more often than any other (a narrow space in
 * blurred type). Photos only: a clean print's glued unit is what the page says. Capital symbols (`220В`, `4000К`)
 * are printed glued in catalogues and are left alone.
 */
const GLUED_UNIT = /(?<=(?:^|[\s(])[\dхx,]*\d)(?=(?:мм|см|км|кг|мг|мл|шт|м|г|л)(?:[²³]|\.)?(?:[\s,;)]|$))/g;

/**
 * A unit or an abbreviation of the closed set catalogues print after a number (`180 г`, `10 л`, `1 КГ`, `60 Ач`,
 * `480 ГБ`, `10 м²`), or one of the self-evident shapes `б/г`, `б/у`, `б/н` and `г/м²` anywhere. Not a bare `м`, `мм`,
 * `см` or `км`: a scan loses the superscript of `мм²` and leaves a well-scored `мм` (`2х2,5 мм` for `2х2,5 мм²`). Matched on
 * the word as the rus model returns it, with the look-alike and glyph classes {@link cleanName} rewrites folded
 * (`6/r` = `б/г`, `r/m?` = `г/м²`, `ммх` before a number = `мм х`).
 */
const UNIT_WORD = /^(?:[кмс]?г|т|[мк]?л|[смк]?м[²³23]|шт|уп|упак|пар|рул|компл|[кМ]?Вт|В|А|[мА]?Ач|[КМГТ]Б|%)$/i;
const SELF_EVIDENT = /^(?:б\/[гун]|г\/м²)$/;

/** Tesseract's score of a word the name's own shape vouches for ({@link nameCellConfidence}) is raised to this (0–100). */
export const VOUCHED_WORD_CONFIDENCE = 90;

/**
 * Whether a word of a name cell is vouched for by its shape and neighbours, so its own low score (short words score
 * low: `г` 31, `л` 72) does not decide the name's confidence: a unit of {@link UNIT_WORD} right after a number, a
 * `б/г`-like abbreviation, or the diameter sign the rus model lacks (`@`, `©`, `Ø`) right before a number.
 * `prev`/`next` are the neighbouring words of the cell (reading order), or undefined.
 */
export function vouchedNameWord(text: string, prev?: string, next?: string): boolean {
  const afterNumber = prev != null && /\d[,.]?$/.test(prev);
  const beforeNumber = next != null && /^\d/.test(next);
  if (/^[@©Ø]$/.test(text)) return beforeNumber;
  const t = toCyrillic(text.replace(/^[«"(]+|[»"),.;:]+$/g, ''))
    .replace(/^6\//, 'б/')
    .replace(/(?<=\/)т(?=[?²]$)/, 'м')
    .replace(/\?$/, '²');
  if (SELF_EVIDENT.test(t)) return true;
  return afterNumber && UNIT_WORD.test(beforeNumber ? t.replace(/х$/, '') : t);
}

/**
 * Below this score (0–100) a unit is not vouched for: the score of a short unit falls that low when ink beside it went
 * unread, such as the superscript of `мм²` (read `мм` at 54), so the shape proves nothing then.
 */
const VOUCH_MIN_SCORE = 60;

/** Least score (0–100) of a number before a vouched unit that counts with it ({@link nameCellConfidence}). */
const QUANTITY_MIN_SCORE = 70;

/**
 * Confidence (0..1) of a name cell: the lowest word score, where a word {@link vouchedNameWord} vouches for counts at
 * least {@link VOUCHED_WORD_CONFIDENCE} (if its own score is at least {@link VOUCH_MIN_SCORE}), and so does a number of up
 * to four digits right before such a unit scored at least {@link QUANTITY_MIN_SCORE}. An empty cell is 0.
 */
export function nameCellConfidence(cell: Cell | undefined): number {
  if (!cell || cell.words.length === 0) return 0;
  const ws = cell.words;
  const vouched = ws.map((w, k) => w.conf >= VOUCH_MIN_SCORE && vouchedNameWord(w.text, ws[k - 1]?.text, ws[k + 1]?.text));
  // A short number right before a vouched unit ("10 л", "180 г") is a quantity of the pack: scored fairly, it counts too.
  const quantity = (k: number) => vouched[k + 1] === true && ws[k].conf >= QUANTITY_MIN_SCORE && /^\d{1,4}(?:[,.]\d{1,3})?$/.test(ws[k].text);
  const scores = ws.map((w, k) => (vouched[k] || quantity(k) ? Math.max(w.conf, VOUCHED_WORD_CONFIDENCE) : w.conf));
  return Math.max(0, Math.min(...scores)) / 100;
}

/**
 * A numeric cell's text without the stray glyphs a photo reads beside the number ("412,68 }", "195,00. у"): when a
 * word of the cell holds a digit, the words with neither a digit nor only digit look-alikes are dropped. "без НДС" and a
 * cell of letters only (a lone "З" for 3) are left as they are.
 */
export function numericText(cell: Cell | undefined): string {
  if (!cell) return '';
  const digits = cell.words.filter((w) => isDigitGroup(w.text));
  if (digits.length === 0 || digits.length === cell.words.length || isExemptText(cell.text)) return cell.text;
  return digits.map((w) => w.text).join(' ');
}

function unitCode(text: string): string | null {
  const d = text
    .replace(/[^\dОоOЗб]/g, '')
    .replace(/[ОоO]/g, '0')
    .replace(/[Зз]/g, '3')
    .replace(/б/g, '6');
  if (d.length === 0 || d.length > 4) return null;
  return d.padStart(3, '0');
}

const UNIT_TWINS: Record<string, string> = { w: 'ш', t: 'т', n: 'п', r: 'г', u: 'и' };

function unitName(text: string): string | null {
  // Unit names are Russian abbreviations (OKEI short names); rus+eng reads some letters as Latin ("шт" → "wt",
  // "кг" → "kr"): folded back, and a lone "п" is the litre "л" (no OKEI unit is "п").
  const t = toCyrillic(
    text
      .replace(/[|│¦]/g, '')
      .trim()
      .toLowerCase()
      .replace(/[wtnru]/g, (ch) => UNIT_TWINS[ch]!),
  );
  if (t === 'п') return 'л';
  return t === '' || DASH.test(t) ? null : t;
}

function productCode(text: string): string | null {
  const t = text.replace(/[|│¦]/g, '').trim();
  return t === '' || DASH.test(t) ? null : t;
}

/**
 * Turns one raw table row into a spec line item (Spec: Recognised data, items[]): line number, name, product
 * code, OKEI unit code (zero-padded to 3 digits) and name (lower-case), quantity, price, amounts, VAT rate with
 * "без НДС" as `nds_exempt` and a null VAT amount. Unreadable cells become null. Confidences go to `conf`
 * under `items[i].<field>`. `photo`: the page was a phone photo ({@link itemName}).
 */
export function rowToItem(row: RawRow, form: FormColumns, i: number, conf: FieldConfidence, photo = false): LineItem {
  const byField = new Map<ItemField, Cell>();
  for (const [label, cell] of row) {
    const f = form.fields[label];
    if (f) byField.set(f, cell);
  }
  const text = (f: ItemField) => byField.get(f)?.text ?? '';
  const number = (f: ItemField) => numericText(byField.get(f));
  const rate = parseRate(text('nds_rate'));
  const vatText = text('nds_amount');
  const exempt = rate === 'exempt' || isExemptText(vatText);
  const numericRate = rate === 'exempt' ? null : rate;
  const item: LineItem = {
    number: parseLineNumber(text('number')) ?? i + 1,
    name: itemName(text('name'), photo),
    product_code: productCode(text('product_code')),
    unit: { code: unitCode(text('unit_code')), name: unitName(text('unit_name')) },
    quantity: parseRuNumber(number('quantity')),
    price: parseMoney(number('price')),
    amount_without_nds: parseMoney(number('amount_without_nds')),
    nds_rate: exempt ? null : numericRate,
    nds_amount: exempt ? null : parseMoney(number('nds_amount')),
    amount_with_nds: parseMoney(number('amount_with_nds')),
  };
  if (exempt) item.nds_exempt = true;
  const paths: [string, ItemField][] = [
    ['number', 'number'],
    ['name', 'name'],
    ['product_code', 'product_code'],
    ['unit.code', 'unit_code'],
    ['unit.name', 'unit_name'],
    ['quantity', 'quantity'],
    ['price', 'price'],
    ['amount_without_nds', 'amount_without_nds'],
    ['nds_rate', 'nds_rate'],
    ['nds_amount', 'nds_amount'],
    ['amount_with_nds', 'amount_with_nds'],
  ];
  for (const [path, f] of paths) conf[`items[${i}].${path}`] = cellConfidence(byField.get(f));
  conf[`items[${i}].name`] = nameCellConfidence(byField.get('name'));
  if (item.name) {
    // A letter read back from a zero-led number (D500) is a good guess, not a reading: the cap of the number stays.
    const cap = Math.min(nameConfidenceCap(item.name), ZERO_FOR_D.test(cleanName(text('name'))) ? AMBIGUOUS_NAME_CONFIDENCE : 1);
    conf[`items[${i}].name`] = Math.min(conf[`items[${i}].name`], cap);
  }
  return item;
}
