import { distance } from 'fastest-levenshtein';
import type { Party } from '../engine.port.js';
import type { FieldConfidence } from './items.js';
import { cleanName } from './items.js';
import { readsLookalike } from './russian-words.js';
import { isMendedDate, MENDED_DATE_CONFIDENCE } from './dates.js';
import { resolveLookalikes, toCyrillic } from './script.js';
import { innChecksumOk, innHasValidLength } from '../validate/tax-ids.js';
import type { TextLine, Word } from './words.js';

/** Header fields of a document with the confidences of the words they came from. */
export interface HeaderFields {
  number: string | null;
  date: string | null;
  seller: Party;
  buyer: Party;
}

export { normalizeDate, parseDate } from './dates.js';

/**
 * Digits of a tax id as OCR reads them (look-alike letters fixed); null unless 5–12 digits remain. A short
 * INN is returned as printed (validation reports its length) rather than dropped.
 */
export function taxDigits(text: string): string | null {
  const d = text.replace(/[ОоO]/g, '0').replace(/[Зз]/g, '3').replace(/б/g, '6').replace(/[lI|]/g, '1').replace(/\D/g, '');
  return d.length >= 5 && d.length <= 12 ? d : null;
}

/** Words of `line` after the first word matching `label` (the label word itself excluded). */
export function wordsAfter(line: TextLine, label: RegExp | ((text: string) => boolean)): Word[] {
  const matches = typeof label === 'function' ? label : (t: string) => label.test(t);
  const i = line.words.findIndex((w) => matches(w.text));
  if (i < 0) return [];
  // A colon read apart from its label ("продавца :") is not part of the value.
  let j = i + 1;
  while (j < line.words.length && /^[:;.,—–-]+$/.test(line.words[j].text)) j++;
  return line.words.slice(j);
}

/** Removes the form's field references at the end of a value: "(2)", "(2а)", "(6б)" and OCR variants "(26)", "(ба)". */
export function stripRef(words: Word[]): Word[] {
  const ws = [...words];
  while (ws.length > 0 && /^\(?[\dбаБ]{1,3}[а-яa-z]?\)?$/.test(ws[ws.length - 1].text) && /[()]/.test(ws[ws.length - 1].text)) ws.pop();
  return ws;
}

/** True for an INN of a valid length whose check digits hold. */
export const validInn = (inn: string | null): boolean => inn != null && innHasValidLength(inn) && innChecksumOk(inn);

/** A name's letters and digits only, lower case, ё as е: two prints of one name compared by edits. */
export const nameLetters = (s: string): string =>
  s
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * Caps `document.date`'s confidence at {@link MENDED_DATE_CONFIDENCE} when the date as read (`text`) had a day or month
 * no calendar has and was mended by a look-alike digit (dates.ts `normalizeDate`): the field is a likely reading.
 */
export function capMendedDate(conf: FieldConfidence, text: string): void {
  if (isMendedDate(text)) conf['document.date'] = Math.min(conf['document.date'] ?? 0, MENDED_DATE_CONFIDENCE);
}

/** Records the lowest confidence (0..1) of `words` under `path`, or 0 when there are none. */
export function noteConf(conf: FieldConfidence, path: string, words: Word[]): void {
  conf[path] = words.length === 0 ? 0 : Math.max(0, Math.min(...words.map((w) => w.conf))) / 100;
}

/** Joins words to text and cleans it like a name (quotes, rule fragments, spacing). */
export const joinName = (words: Word[]): string | null => {
  // Legal-form abbreviations are always capitals; OCR sometimes lowers them ("ип", "ооо" read as "000" is a digit case).
  const s = cleanName(
    words
      .map((w) => w.text)
      .join(' ')
      .replace(/^[:\s]+/, ''),
  )
    .replace(/^(ип|ооо|ао|пао|зао|оао)(?=\s)/i, (m) => m.toUpperCase())
    .replace(/^000(?=\s)/, 'ООО')
    .replace(/[„"“]+(?=«)/g, '')
    // A digit zero in it is the letter О (`0СО`, `О0О`): no legal form holds a digit.
    .replace(/^([А-ЯЁ0]{2,4})(?=\s«)/, (m) => {
      const form = nearestLegalForm(m.replace(/0/g, 'О'));
      return LEGAL_FORMS.includes(form) ? form : m;
    })
    // A colon inside a word ("Вектор:-Плюс" for "Вектор-Плюс") is a speck: no company name has one there.
    .replace(/(?<=\p{L}):(?=[-\p{L}])/gu, '');
  return s === '' ? null : spelledLegalForm(s);
};

/** Legal forms spelled out, as a party name may open with them. */
const SPELLED_FORMS = [
  'Общество с ограниченной ответственностью',
  'Публичное акционерное общество',
  'Непубличное акционерное общество',
  'Закрытое акционерное общество',
  'Открытое акционерное общество',
  'Акционерное общество',
  'Индивидуальный предприниматель',
];

/**
 * A name opening with a spelled-out legal form read with a few letters garbled (`Общество © ограниченной
 * ответственностью`): the form's words, compared letters only within a tenth of their letters, are replaced by the
 * form as the law spells it when exactly one form is that near (`Открытое` and `Закрытое акционерное общество` are two
 * letters apart: a reading near both is left as read); the rest of the name is kept as read.
 */
export function spelledLegalForm(name: string): string {
  const words = name.split(' ');
  const letters = (ws: string[]) =>
    ws
      .join('')
      .toLowerCase()
      .replace(/ё/g, 'е')
      .replace(/[^а-я]/g, '');
  const near: { form: string; n: number; d: number }[] = [];
  for (const form of SPELLED_FORMS) {
    const n = form.split(' ').length;
    if (words.length <= n) continue;
    const want = letters([form]);
    const d = distance(letters(words.slice(0, n)), want);
    if (d <= Math.floor(want.length / 10)) near.push({ form, n, d });
  }
  // An exact form is kept as read; forms near each other ("Открытое" / "Закрытое") settle nothing unless one is exact.
  if (near.length !== 1 || near[0].d === 0) return name;
  return [near[0].form, ...words.slice(near[0].n)].join(' ');
}

/** Abbreviated legal forms a Russian party name opens with (ОПФ, as 1C prints them before the quoted name). */
const LEGAL_FORMS = ['ООО', 'ОАО', 'ЗАО', 'ПАО', 'НАО', 'АО', 'НКО', 'АНО', 'ГУП', 'МУП', 'ФГУП'];

/**
 * The legal form `text` stands for: itself when known, else the only known form one letter away (a photo reads
 * `ЗАО` as `ЗЛО`), or among several the only one whose letter a blurred photo reads as the one printed
 * ({@link readsLookalike}: `ОСО` is `ООО`, not `ОАО`), else `text` unchanged (`ОЗО`: `ООО` and `ОАО` alike).
 */
export function nearestLegalForm(text: string): string {
  if (LEGAL_FORMS.includes(text)) return text;
  const near = LEGAL_FORMS.filter((f) => f.length === text.length && distance(f, text) === 1);
  if (near.length === 1) return near[0];
  const lookalike = near.filter((f) => [...f].every((c, i) => c === text[i] || readsLookalike(text[i], c)));
  return lookalike.length === 1 ? lookalike[0] : text;
}

/**
 * A party name with Latin/Cyrillic look-alikes settled per token ("ООО «Smart Tech»" read as "ООО «Ѕmаrt Тесh»"),
 * and a speck after its closing quote dropped: one or two marks, or one lower-case letter, glued to the `»` that
 * ends the name (`«Опт»®`, `«Логистик»ь`); no company name goes on so after its quoted part. An individual
 * entrepreneur's patronymic ending `-овиа`/`-евиа` is `-овна`/`-евна` (`н` blurs into `и`; no Russian name ends so).
 */
export const nameOf = (name: string | null): string | null =>
  name == null
    ? null
    : resolveLookalikes(name)
        .replace(/(?<=»)(?:[^\s\p{L}\p{N}()«»]{1,2}|[а-яё])$/u, '')
        .replace(/^((?:ИП|Индивидуальный предприниматель)\s.*\s[А-ЯЁ][а-яё]+[ое]в)и(а)$/u, '$1н$2');

/**
 * Keeps the leading words up to the first gap wider than `factor` × the median word height: a value ends where
 * a neighbouring box (the form's field references, the OKUD codes table) begins on the same line.
 */
export function untilGap(words: Word[], factor = 2.5): Word[] {
  if (words.length === 0) return words;
  const h = [...words.map((w) => w.height)].sort((a, b) => a - b)[words.length >> 1];
  const out = [words[0]];
  for (let i = 1; i < words.length; i++) {
    if (words[i].left - (words[i - 1].left + words[i - 1].width) > factor * h) break;
    out.push(words[i]);
  }
  return out;
}

/** Capitals a photo reads as digits in a 1C number prefix. */
const PREFIX_LETTER: Record<string, string> = { '0': 'О', '3': 'З', '6': 'Б', '8': 'В' };

/**
 * 1C prefixes ("УТ-03828") whose hyphen OCR reads as a point or comma (a dash or point after the last digit is the
 * field's underline and goes), and whose letters rus+eng may read as
 * Latin twins ("PH-00412" for "РН-00412"): a prefix of look-alike capitals only is taken as Cyrillic, as 1C
 * prints it; a prefix with a Latin-only letter ("INV-7") stays Latin. A two-character prefix of a Cyrillic capital
 * and a digit that looks like one (0 3 6 8) is two capitals ("Т6-" → "ТБ-"); a prefix of digits only stays.
 */
export const fixNumberPrefix = (t: string): string =>
  t
    // A number never ends with a dash or a point: the underline of the number's field, read after it ("УТ-218-").
    .replace(/(?<=\d)[-_–—.]+$/, '')
    .replace(/^([А-ЯЁA-Z]{1,4})[.,·]\s*(\d+)$/, '$1-$2')
    // A two-character prefix of a letter and a digit is letters misread ("ТБ" as "Т6"): 1C prefixes are letters.
    .replace(/^(?:[А-ЯЁ][0368]|[0368][А-ЯЁ])(?=-\d)/, (prefix) => prefix.replace(/[0368]/, (d) => PREFIX_LETTER[d]))
    .replace(/^([ABCEHKMOPTXY]{1,4})(?=-\d)/, (prefix) => toCyrillic(prefix));

/**
 * "inn/kpp" as printed → [inn, kpp] texts. Photo OCR often reads the slash as a digit ("6164062127 1 616401001"
 * → 20 digits) or drops it: without a slash, a run of 19–22 digits is split as a 10- or 12-digit INN, at most one
 * digit that was the slash, and a 9-digit KPP, preferring the INN whose check digits hold.
 */
export function splitInnKpp(text: string): [string | undefined, string | undefined] {
  if (text.includes('/')) {
    const [inn, kpp] = text.split('/');
    return [inn, kpp];
  }
  // The same look-alike folding as taxDigits, without its length limit.
  const digits = text.replace(/[ОоO]/g, '0').replace(/[Зз]/g, '3').replace(/б/g, '6').replace(/[lI|]/g, '1').replace(/\D/g, '');
  if (digits.length < 19 || digits.length > 22) return [text, undefined];
  const splits = [10, 12].map((n) => ({ inn: digits.slice(0, n), skip: digits.length - n - 9 })).filter((c) => c.skip === 0 || c.skip === 1);
  const best = splits.find((c) => innHasValidLength(c.inn) && innChecksumOk(c.inn)) ?? splits[0];
  return best ? [best.inn, digits.slice(-9)] : [text, undefined];
}

/** The role words of the tax-id lines (2б) and (6б), "ИНН/КПП продавца:" and "ИНН/КПП покупателя:". */
const ROLE_WORDS: [string, 'seller' | 'buyer'][] = [
  ['продавца', 'seller'],
  ['покупателя', 'buyer'],
];

/**
 * The party a tax-id line's role word names: 'seller' for "продавца", 'buyer' for "покупателя", null for any other
 * word. A blurred photo garbles a few letters ("прадлжца", "рокупателя"), so up to three edits are allowed in the
 * word's letters (the form's own fixed text; the two words are 7 edits apart).
 */
export function taxIdRole(text: string): 'seller' | 'buyer' | null {
  const t = text.toLowerCase().replace(/[^а-яё]/g, '');
  if (t.length < 6) return null;
  for (const [word, role] of ROLE_WORDS) if (t.startsWith(word.slice(0, 6)) || distance(t, word) <= 3) return role;
  return null;
}
