import type { EngineWarning, RecognizedData } from '../engine.port.js';

/**
 * Field confidence (0..1, docs/recognition-engine.md "Field confidence") below which a value that no check of the
 * document can prove is reported as a warning. Measured on the development set's scan tier: item names
 * below 0.9 were wrong 64 times in 97, at 0.9 or above 0 times in 10.
 */
export const SURE_FIELD_CONFIDENCE = 0.9;

/** Confidence cap of a name that holds what no printed name holds ({@link suspiciousName}). */
export const SUSPICIOUS_NAME_CONFIDENCE = 0.5;

/** Confidence cap of a name with a word that reads as well one way as another ({@link ambiguousName}). */
export const AMBIGUOUS_NAME_CONFIDENCE = 0.85;

const CHECK_IT = 'check it against the page';

/** True for a warning of {@link doubtfulFieldWarnings}: a value a person has to compare with the page. */
export const isDoubtfulValueWarning = (w: { message: string }): boolean => w.message.endsWith(CHECK_IT);

/**
 * What Tesseract leaves in a name it could not read, and no catalogue prints: glyphs it substitutes for letters its
 * model lacks ("Кпау{", "С$", "АНаз)ез!дп" — a closing bracket inside a word; "*" and "#" are left out, catalogues print
 * "М8*40" and "#120"), a word mixing Latin and Cyrillic letters ("ВасК-UР$"), and one digit between letters, the next
 * lower-case ("Т1ы", "В1осК"; "Ду15мм" is printed so). Word confidences alone missed these: Tesseract is often sure
 * of a wrong glyph, so such names came back at confidence 1.0.
 */
export function suspiciousName(name: string): boolean {
  return (
    /[!${}[\]\\|@©®^~_<>‹›?]/.test(name) ||
    /[\p{L}\d]\)\p{L}/u.test(name) ||
    /[A-Za-z][А-Яа-яЁё]|[А-Яа-яЁё][A-Za-z]/.test(name) ||
    /\p{L}\d\p{Ll}/u.test(name)
  );
}

/** Capitals printed alike in both alphabets (А/A, В/B, Е/E, К/K, М/M, Н/H, О/O, Р/P, С/C, Т/T, Х/X, У/Y). */
const LOOKALIKE_CAPS = /^[АВЕКМНОРСТХУABEKMHOPCTXY]{3,}[.,;]?$/;
/** A number with a leading zero and no fraction, standing alone: no quantity is printed so. */
const ZERO_LED_NUMBER = /(?<=^|\s)0\d{3}(?=[\s,;]|$)/;

/**
 * Words both Tesseract reads agree on and still may be wrong, because the glyphs read the same either way, so
 * neither the second read nor the script rules can settle them (development set: these were the item
 * names wrong at field confidence ≥ 0.9):
 * - a word of three or more capitals that print alike in Latin and Cyrillic (`МАММ`/`MANN`, `ТЕХЕТ`): which alphabet,
 *   and whether `М` was an `N` the rus model has no letter for, is a guess;
 * - a model code of look-alike capitals and digits only (`В-410А` or `R-410A`, `6СТ-60` or `6CT-60`);
 * - a four-digit number with a leading zero (`0500`): no quantity or size is printed so; it is a letter the rus model
 *   lacks (`D500`, a density grade) read as a zero. extract/items.ts reads it back as D and keeps this cap.
 */
export function ambiguousName(name: string): boolean {
  return ZERO_LED_NUMBER.test(name) || name.split(/\s+/).some((t) => LOOKALIKE_CAPS.test(t) || lookalikeCode(t));
}

/**
 * A model code whose letters (two or more) are all capitals printed alike in both alphabets (`В-410А`, `6СТ-60`):
 * the script rules decide it by the words around it, which is a guess either way. One letter (`А4`, `A400`) is
 * left alone, and so is the multiplication sign of a size (`600х300`).
 */
function lookalikeCode(token: string): boolean {
  const letters = token.replace(/(?<=\d)[xх](?=\d)/g, '').replace(/[^\p{L}]/gu, '');
  return /\d/.test(token) && letters.length >= 2 && /^[АВЕКМНОРСТХУABEKMHOPCTXY]+$/.test(letters);
}

/** Prepositions and conjunctions a Russian name never ends with, and words that announce a value ("размер L"). */
const OPEN_END = /(?:^|\s)(?:в|во|с|со|для|по|на|из|и|или|под|от|до|к|без|при|размер|цвет|арт\.?)$/i;

/**
 * A name that a word is likely missing from, though every word read is right: one that begins with a lower-case
 * letter (the first word went to the row above or into the number column: "для записей в кубе …" for "Блок для …"),
 * or ends with a preposition, a conjunction or a word announcing a value (`…, размер` whose size was lost). Catalogue
 * names begin with a capital far more often than not, so the rare name printed lower-case ("п/э пакет") costs only a
 * check against the page.
 */
export function incompleteName(name: string): boolean {
  const t = name.trim().replace(/[,;:]+$/, '');
  return /^\p{Ll}/u.test(t) || OPEN_END.test(t);
}

/** The highest confidence (0..1) an item name's own text allows: 0.5 suspicious, 0.85 ambiguous or incomplete, else 1. */
export function nameConfidenceCap(name: string): number {
  if (suspiciousName(name)) return SUSPICIOUS_NAME_CONFIDENCE;
  return ambiguousName(name) || incompleteName(name) ? AMBIGUOUS_NAME_CONFIDENCE : 1;
}

/**
 * The one mechanism that warns about doubtful values: values that nothing in the document checks and whose reading
 * is doubtful, one warning per value. Item names and party names below {@link SURE_FIELD_CONFIDENCE}, and the
 * document number. An item name's confidence already carries its text's own evidence ({@link nameConfidenceCap},
 * applied in extract/items.ts, and the two reads' agreement, ocr/name-column.ts), so a name with junk glyphs is told
 * as such and any other doubtful value by its confidence. Amounts, INNs and units are not listed here: the line
 * arithmetic, the INN check digit and OKEI already warn when they disagree (validate/), and an unchecked amount that
 * agrees with its line is right far more often than its word confidence says.
 *
 * Each doubtful value is one warning, so a document's confidence (Spec: Validation and confidence, −0.05 per warning)
 * falls with the number of values a person has to look at. `conf` maps field paths (`items[2].name`, `seller.name`)
 * to 0..1; a missing entry counts as 0.
 */
export function doubtfulFieldWarnings(data: RecognizedData, conf: Record<string, number>): EngineWarning[] {
  const out: EngineWarning[] = [];
  const check = (path: string, value: string | null | undefined, what: string, isItemName = false) => {
    if (value == null || value.trim() === '') return;
    const c = conf[path] ?? 0;
    if (c >= SURE_FIELD_CONFIDENCE) return;
    const why = isItemName && suspiciousName(value) ? 'holds characters a printed name does not' : `read with low confidence (${c.toFixed(2)})`;
    out.push({ field: path, message: `${what} ${why}; ${CHECK_IT}` });
  };
  check('document.number', data.document.number, 'document number');
  check('seller.name', data.seller.name, 'seller name');
  check('buyer.name', data.buyer.name, 'buyer name');
  for (const [i, it] of data.items.entries()) check(`items[${i}].name`, it.name, 'item name', true);
  return out;
}
