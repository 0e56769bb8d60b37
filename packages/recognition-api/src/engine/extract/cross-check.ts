import { distance } from 'fastest-levenshtein';
import type { EngineWarning, RecognizedData } from '../engine.port.js';
import { checkUnit, normaliseUnitName, OKEI_UNITS } from '../validate/okei.js';
import { innChecksumOk, innHasValidLength, kppFormatOk } from '../validate/tax-ids.js';
import type { FieldConfidence } from './items.js';
import { lineHolds, REPAIRED_CONFIDENCE, singleDigitDiff } from './repair.js';

/**
 * Ceiling of a field the document itself contradicts (line arithmetic fails, INN check digit wrong, unit code and
 * name disagree, line number out of sequence): well below the 0.9 a client may take as "sure", whatever
 * Tesseract's word confidence says. Tesseract is often sure of a misread digit (6 read as 5 at 95 %).
 */
export const CONTRADICTED_CONFIDENCE = 0.5;
/** Ceiling of a line's amounts when the arithmetic could not be checked (a value missing): not proven. */
export const UNCHECKED_CONFIDENCE = 0.85;

const NUMERIC = ['quantity', 'price', 'amount_without_nds', 'nds_rate', 'nds_amount', 'amount_with_nds'] as const;
const k = (x: number): number => Math.round(x * 100);

/** OKEI code by unit name, only for names that belong to exactly one code ("ед" is two codes: no answer). */
const CODE_BY_NAME = (() => {
  const by = new Map<string, string | null>();
  for (const [code, names] of Object.entries(OKEI_UNITS))
    for (const n of names) {
      const key = normaliseUnitName(n);
      by.set(key, by.has(key) && by.get(key) !== code ? null : code);
    }
  return by;
})();

/**
 * The OKEI code of a garbled unit name (`руп`, `шг`) that the code read beside it confirms: the codes with a name one
 * letter away (letters only; two letters or more read), of which exactly one is one digit from the read code, or,
 * when the read code is no OKEI code and none is one digit from it, exactly one at all. Undefined otherwise.
 */
function nearUnitCode(code: string, name: string): string | undefined {
  const read = name.toLowerCase().replace(/[^а-яё]/g, '');
  if (read.length < 2) return undefined;
  const near = Object.entries(OKEI_UNITS)
    .filter(([, names]) => names.some((n) => distance(normaliseUnitName(n), read) === 1))
    .map(([c]) => c);
  const oneDigit = near.filter((c) => singleDigitDiff(code, c));
  if (oneDigit.length === 1) return oneDigit[0];
  return !OKEI_UNITS[code] && oneDigit.length === 0 && near.length === 1 ? near[0] : undefined;
}

/**
 * A unit code misread in one digit (795 for 796, 539 for 839), or read as no OKEI code at all (007 for a photo's
 * "7."), while its name was read: the name's only OKEI code replaces it; a code of another unit is kept. The name
 * is the safer of the two: a word of letters rather than three look-alike digits, and the printed pair must agree
 * (OKEI). A unit name that is no OKEI name
 * and only a fragment (photo OCR's "к" for "кг", "ил" for "шт"), or a missing one, beside a known code becomes that
 * code's short name; a whole word ("штука", "бухта") is kept as printed. A name one letter off a unit's
 * ("руп" beside 735) gives that unit's code when the read code confirms it ({@link nearUnitCode}). A warning names
 * each repair.
 */
export function repairUnitCodes(data: RecognizedData, warnings: EngineWarning[], conf: FieldConfidence): void {
  data.items.forEach((it, i) => {
    const { code, name } = it.unit;
    if (code == null || checkUnit(code, name) === 'ok') return;
    const known = name != null && CODE_BY_NAME.has(normaliseUnitName(name));
    // Only a fragment (one or two characters, or with digits or symbols in it) is OCR's damage; a word that is
    // simply not in the short OKEI list ("бухта", "пачка") is the document's own unit name and stays as printed.
    const fragment = name == null || name.trim().length <= 2 || /[^а-яёa-z.\s-]/i.test(name);
    if (!known && fragment && OKEI_UNITS[code]) {
      // A name that is no OKEI unit at all ("к", "ил") beside a known code: the code's own short name.
      const fixed = OKEI_UNITS[code][0];
      warnings.push({ field: `items[${i}].unit.name`, message: `read «${name ?? ''}», the OKEI code ${code} gives «${fixed}»; corrected` });
      it.unit.name = fixed;
      conf[`items[${i}].unit.name`] = REPAIRED_CONFIDENCE;
      return;
    }
    if (name == null) return;
    const want = CODE_BY_NAME.get(normaliseUnitName(name)) ?? nearUnitCode(code, name);
    // One misread digit, or a reading that is no OKEI code at all (a photo's "7." for 796, read as 007): a code that
    // is another unit's stays, since then the name may be the misread one.
    const why = !want ? null : singleDigitDiff(code, want) ? 'one misread digit' : OKEI_UNITS[code] ? null : 'no OKEI code';
    if (!want || !why) return;
    warnings.push({
      field: `items[${i}].unit.code`,
      message: `read ${code}, the unit name «${name}» gives OKEI ${want} (${why}); corrected`,
    });
    it.unit.code = want;
    conf[`items[${i}].unit.code`] = REPAIRED_CONFIDENCE;
  });
}

/**
 * Line numbers (column "№ п/п") misread where the lines around prove the sequence: a number that is not its
 * predecessor's + 1, between a predecessor and a successor two apart (`10, 1, 12` → 11; the first line before a 2,
 * the last after its position's predecessor), becomes the number the sequence gives, with a warning; its confidence
 * stays as read. A gap the neighbours do not close (`10, 1, 14`: lines may be missing) is left as read, and the
 * out-of-sequence warning reports it. Items in place; spec "Recognised data" `items[].number`.
 */
export function repairLineNumbers(items: { number: number }[], warnings: EngineWarning[]): void {
  items.forEach((it, i) => {
    const prev = i === 0 ? 0 : items[i - 1].number;
    const want = prev + 1;
    if (it.number === want) return;
    const next = items[i + 1]?.number;
    const proven = next !== undefined ? next === prev + 2 : i > 0 && prev === i;
    if (!proven) return;
    warnings.push({ field: `items[${i}].number`, message: `line number read as ${it.number}, the lines around give ${want}; corrected` });
    it.number = want;
  });
}

/**
 * A document number no accounting system prints: one without a digit (a stray letter taken for the number), or one
 * with a lower-case letter (1C and other systems print their prefixes in capitals: `УТ-7516`, `ЦБ-008803`, `А-0667`),
 * which OCR gives for a capital it misread (`пБ-…` for `ЦБ-…`).
 */
export function implausibleDocumentNumber(number: string): boolean {
  return !/\d/.test(number) || /\p{Ll}/u.test(number);
}

const cap = (conf: FieldConfidence, path: string, ceiling: number) => {
  if ((conf[path] ?? 0) > ceiling) conf[path] = ceiling;
};

/**
 * Makes the field confidences honest with what the document proves or contradicts (docs/recognition-engine.md
 * "Field confidence"). Tesseract's word confidence alone is a poor guide on photos: a misread digit often comes
 * with 90–97 %. So a field the document contradicts is capped at {@link CONTRADICTED_CONFIDENCE}: a line whose
 * arithmetic fails (all its amounts: which one is wrong is unknown), a line number out of sequence, a unit code and
 * name that OKEI does not pair, an INN with a wrong check digit or a malformed KPP, totals that are not the sum of
 * the lines or not amount + VAT, a document number without a digit or with a lower-case letter
 * ({@link implausibleDocumentNumber}). Amounts of a line that could not be checked (a value missing) are capped at
 * {@link UNCHECKED_CONFIDENCE}. An empty field has confidence 0. Confidences are only ever lowered here.
 */
export function crossCheckConfidence(data: RecognizedData, conf: FieldConfidence): void {
  data.items.forEach((it, i) => {
    const p = `items[${i}]`;
    for (const f of NUMERIC)
      if (it[f] == null && !(f === 'nds_amount' && it.nds_exempt) && !(f === 'nds_rate' && it.nds_exempt)) conf[`${p}.${f}`] = 0;
    if (it.number !== i + 1) cap(conf, `${p}.number`, CONTRADICTED_CONFIDENCE);
    const complete =
      it.quantity != null &&
      it.price != null &&
      it.amount_without_nds != null &&
      it.amount_with_nds != null &&
      (it.nds_exempt || (it.nds_amount != null && it.nds_rate != null));
    const ceiling = !lineHolds(it) ? CONTRADICTED_CONFIDENCE : complete ? 1 : UNCHECKED_CONFIDENCE;
    for (const f of NUMERIC) cap(conf, `${p}.${f}`, ceiling);
    if (it.unit.code == null) conf[`${p}.unit.code`] = 0;
    if (it.unit.name == null) conf[`${p}.unit.name`] = 0;
    if (it.unit.code != null && checkUnit(it.unit.code, it.unit.name) !== 'ok') {
      cap(conf, `${p}.unit.code`, CONTRADICTED_CONFIDENCE);
      cap(conf, `${p}.unit.name`, CONTRADICTED_CONFIDENCE);
    }
    if (!it.name) conf[`${p}.name`] = 0;
  });
  for (const role of ['seller', 'buyer'] as const) {
    const { inn, kpp } = data[role];
    if (inn == null) conf[`${role}.inn`] = 0;
    else if (!innHasValidLength(inn) || !innChecksumOk(inn)) cap(conf, `${role}.inn`, CONTRADICTED_CONFIDENCE);
    if (kpp == null) conf[`${role}.kpp`] = 0;
    else if (!kppFormatOk(kpp)) cap(conf, `${role}.kpp`, CONTRADICTED_CONFIDENCE);
    if (!data[role].name) conf[`${role}.name`] = 0;
  }
  if (data.document.number == null) conf['document.number'] = 0;
  else if (implausibleDocumentNumber(data.document.number)) cap(conf, 'document.number', CONTRADICTED_CONFIDENCE);
  if (data.document.date == null) conf['document.date'] = 0;
  const t = data.totals;
  for (const key of ['amount_without_nds', 'nds_amount', 'amount_with_nds'] as const) {
    if (t[key] == null) {
      conf[`totals.${key}`] = 0;
      continue;
    }
    const values = data.items.map((it) => (key === 'nds_amount' && it.nds_exempt ? 0 : it[key]));
    const summed = data.items.length > 0 && values.every((v) => v != null);
    // One kopeck of rounding per line is tolerated, as in the line checks.
    if (summed && Math.abs(values.reduce<number>((a, v) => a + k(v!), 0) - k(t[key]!)) > data.items.length)
      cap(conf, `totals.${key}`, CONTRADICTED_CONFIDENCE);
    else if (!summed) cap(conf, `totals.${key}`, UNCHECKED_CONFIDENCE);
  }
  const { amount_without_nds: s, nds_amount: v, amount_with_nds: w } = t;
  if (s != null && v != null && w != null && Math.abs(k(s) + k(v) - k(w)) > 1)
    for (const key of ['amount_without_nds', 'nds_amount', 'amount_with_nds'] as const) cap(conf, `totals.${key}`, CONTRADICTED_CONFIDENCE);
}
