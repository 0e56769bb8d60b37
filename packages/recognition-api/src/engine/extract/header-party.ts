import type { Party } from '../engine.port.js';
import { joinName, nameOf, noteConf, splitInnKpp, taxDigits } from './header.js';
import type { FieldConfidence } from './items.js';
import type { Word } from './words.js';

/** The labelled parts of a party line as 1C prints it on a TORG-12. */
type Part = 'name' | 'inn' | 'innKpp' | 'kpp' | 'address' | 'bank';

/**
 * Labels that open a part of the line. Bank details (р/с, в банке, БИК, к/с), phones and registration numbers
 * are parsed only to be skipped: a 20-digit account or a 9-digit BIK must never become a name, INN or KPP.
 * OCR variants: Latin look-alikes ("p/c"), a colon glued on, "р/сч", "корр. счет".
 */
const LABELS: [RegExp, Part][] = [
  [/^ИНН\s*\/\s*КПП:?$/i, 'innKpp'],
  [/^ИНН:?$/i, 'inn'],
  [/^КПП:?$/i, 'kpp'],
  [/^адрес:?$/i, 'address'],
  [
    /^([рp]\/[сc](ч|чет)?|[рp]\/сч\.?|расч\.?|к\/[сc](ч|чет)?|кор+\.?|кор+\/[сc]|БИК:?|тел\.?:?|телефон:?|факс:?|ОГРН(ИП)?:?|ОКПО:?|e-?mail:?|в|банк:?)$/i,
    'bank',
  ],
];

/** "ИНН7701234567" / "КПП:770101001": a label OCR read glued to its value → [label, value]. */
const GLUED = /^(ИНН\/КПП|ИНН|КПП):?(\d[\d/]*),?$/i;

const labelOf = (text: string): Part | null => LABELS.find(([re]) => re.test(text.replace(/,$/, '')))?.[1] ?? null;

/** Account-like digit runs (р/с, к/с: 20 digits), which are never a name or a tax id. */
const LONG_DIGITS = /\d{13,}/;

const trimCommas = (ws: Word[]): Word[] => ws.map((w) => ({ ...w, text: w.text.replace(/,$/, '') })).filter((w) => w.text !== '');

/**
 * Splits a party line into its labelled parts, left to right: the words before the first label are the name;
 * a label ("ИНН", "КПП", "ИНН/КПП", "р/с", "в банке", "БИК", "к/с", "тел.") opens a part that runs to the next label.
 * A value glued to its label ("ИНН7701234567") is split off. Words after the tax ids up to the next label are
 * the address (1C prints "…, КПП 770101001, 101000, г. Москва, ул. …, р/с …").
 */
function partsOf(ws: Word[]): { part: Part; words: Word[] }[] {
  const out: { part: Part; words: Word[] }[] = [{ part: 'name', words: [] }];
  for (const [i, w] of ws.entries()) {
    const glued = GLUED.exec(w.text);
    if (glued) {
      const part: Part = /\//.test(glued[1]) ? 'innKpp' : /ИНН/i.test(glued[1]) ? 'inn' : 'kpp';
      out.push({ part, words: [{ ...w, text: glued[2] }] });
      continue;
    }
    const label = labelOf(w.text);
    // "в" opens the bank part after an account ("р/с 4070…, в ПАО …") or before "банке", not inside an address.
    const plainWord = label === 'bank' && /^в$/i.test(w.text) && out[out.length - 1].part !== 'bank' && !/^банке/i.test(ws[i + 1]?.text ?? '');
    if (label && !plainWord) {
      out.push({ part: label, words: [] });
      continue;
    }
    const cur = out[out.length - 1];
    // After a tax id's value the next comma-separated words are the address, unless a label opens another part.
    if ((cur.part === 'inn' || cur.part === 'kpp' || cur.part === 'innKpp') && cur.words.length > 0 && idComplete(cur)) {
      out.push({ part: 'address', words: [w] });
      continue;
    }
    cur.words.push(w);
  }
  return out;
}

/** True when a tax-id part holds its whole value (its last word ends with a comma, or has the id's digits). */
function idComplete(p: { part: Part; words: Word[] }): boolean {
  const last = p.words[p.words.length - 1].text;
  if (/,$/.test(last)) return true;
  const digits = p.words
    .map((w) => w.text)
    .join('')
    .replace(/\D/g, '');
  if (p.part === 'kpp') return digits.length >= 9;
  if (p.part === 'inn') return digits.length >= 10;
  return /\/\d{9}/.test(p.words.map((w) => w.text).join(''));
}

/**
 * Parses a TORG-12 party line as 1C prints it: `ООО «…», ИНН …, КПП …, адрес, р/с …, в банке …, БИК …, к/с …`
 * or with `ИНН/КПП x/y`. Name = the organisation name as printed with its legal form; the INN and KPP come
 * only from their labels (a 20-digit account is never a name or an INN); the address runs from after the tax ids to
 * the bank details. Field confidences are recorded in `conf` under `${role}.name|inn|kpp|address`.
 */
export function parsePartyWords(ws: Word[], role: string, conf: FieldConfidence): Party {
  const parts = partsOf(ws);
  const words = (part: Part) => parts.filter((p) => p.part === part).flatMap((p) => p.words);
  // A name never holds an account number, and ends before a postcode (an unlabelled address after it).
  let nameWords = trimCommas(words('name').filter((w) => !LONG_DIGITS.test(w.text.replace(/\s/g, ''))));
  const post = nameWords.findIndex((w, i) => i > 0 && /^\d{6}$/.test(w.text));
  let extraAddress: Word[] = [];
  if (post > 0) {
    extraAddress = nameWords.slice(post);
    nameWords = nameWords.slice(0, post);
  }
  let innWords = trimCommas(words('inn'));
  let kppWords = trimCommas(words('kpp'));
  let inn = innWords.length ? taxDigits(innWords.map((w) => w.text).join('')) : null;
  let kpp = kppWords.length ? taxDigits(kppWords.map((w) => w.text).join('')) : null;
  const pair = trimCommas(words('innKpp'));
  if (pair.length && inn == null) {
    const [i, k] = splitInnKpp(pair.map((w) => w.text).join(''));
    inn = i ? taxDigits(i) : null;
    kpp ??= k ? taxDigits(k) : null;
    innWords = pair;
    kppWords = pair;
  }
  const addrWords = [...extraAddress, ...words('address')];
  const address = joinName(addrWords)?.replace(/^[,\s]+|[,\s]+$/g, '') ?? null;
  noteConf(conf, `${role}.name`, nameWords);
  noteConf(conf, `${role}.inn`, inn ? innWords : []);
  noteConf(conf, `${role}.kpp`, kpp ? kppWords : []);
  noteConf(conf, `${role}.address`, addrWords);
  return {
    // A point after the closing quote is the comma before "ИНН" as a blurred photo reads it: no name ends "».".
    name: nameOf(joinName(nameWords)?.replace(/,$|(?<=[»"”])[.;:]$/, '') ?? null),
    inn,
    kpp: kpp && kpp.length === 9 ? kpp : null,
    address: address === '' ? null : address,
  };
}
