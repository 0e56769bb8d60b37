import { distance } from 'fastest-levenshtein';
import { suspiciousName } from '../confidence/doubtful-fields.js';
import type { Party } from '../engine.port.js';
import {
  capMendedDate,
  fixNumberPrefix,
  nameLetters,
  noteConf,
  normalizeDate,
  parseDate,
  untilGap,
  validInn,
  wordsAfter,
  type HeaderFields,
} from './header.js';
import { parsePartyWords } from './header-party.js';
import type { FieldConfidence } from './items.js';
import { monthNumber } from './dates.js';
import { centerX, type TextLine, type Word } from './words.js';

export { parsePartyWords } from './header-party.js';

/** A caption of the form's fixed text, matched against one OCR word. */
export interface Caption {
  test(text: string): boolean;
}

/**
 * The TORG-12 party caption `word` (lower case, "поставщик"), read with up to two letters garbled: a photo returns
 * `Поставщнк`, `Платеяьщик`, `Грузополуматель`. Only the word's letters count (a colon or a speck after it does not);
 * the four captions are five or more edits apart, so a garbled one is never taken for another.
 */
export function caption(word: string): Caption {
  return {
    test(text: string) {
      const t = text
        .toLowerCase()
        .replace(/ё/g, 'е')
        .replace(/[^а-я]/g, '');
      return Math.abs(t.length - word.length) <= 2 && distance(t, word) <= 2;
    },
  };
}

/**
 * A party line ends at a gap of this many text heights (untilGap): the form's code box is ten or more away, while a
 * word a photo's OCR lost inside the line leaves a gap of its own width, up to five or six.
 */
const PARTY_GAP = 8;

/**
 * The words of a party: those after its caption; when that line has no "ИНН" but the line just above (1C prints
 * long values that way: name and INN above, bank details on the caption line) starts right of the caption and
 * has one, that line comes first.
 */
export function partyLine(lines: TextLine[], labels: Caption[]): Word[] {
  for (const label of labels) {
    const at = lines.findIndex((l) => l.words.some((w) => label.test(w.text)));
    if (at < 0) continue;
    const own = untilGap(
      wordsAfter(lines[at], (t) => label.test(t)),
      PARTY_GAP,
    );
    const caption = lines[at].words.find((w) => label.test(w.text))!;
    const above = lines[at - 1];
    const close = above && lines[at].top - above.bottom < 2 * caption.height;
    if (!own.some((w) => /^ИНН/i.test(w.text)) && close && above.words.some((w) => /^ИНН:?$/i.test(w.text))) {
      return [
        ...untilGap(
          above.words.filter((w) => w.left > caption.left + caption.width / 2),
          PARTY_GAP,
        ),
        ...own,
      ];
    }
    return own;
  }
  return [];
}

/**
 * A date in words inside a line ("«12» марта 2026 г."): the month word with the day before it (in quotes, maybe
 * split into "«12", "»") and the year after. Returns the words and the index where the date starts.
 */
function wordDate(words: Word[]): { words: Word[]; start: number } | null {
  const mi = words.findIndex((w) => monthNumber(w.text) != null);
  if (mi < 1) return null;
  for (let start = mi - 1; start >= Math.max(0, mi - 3); start--) {
    for (let end = mi + 2; end <= Math.min(words.length, mi + 3); end++) {
      const part = words.slice(start, end);
      if (parseDate(part.map((w) => w.text).join(' '))) return { words: part, start };
    }
  }
  return null;
}

/**
 * Number and date from the "Номер документа | Дата составления" box: the values under the captions. The caption
 * is small print and a grey 200 DPI scan garbles its second word ("Номер док)"), so "Номер док…" is enough; when
 * no caption is read at all, the values beside the bold title "ТОВАРНАЯ НАКЛАДНАЯ" (printed on the same line as
 * the box) are used.
 */
function numberAndDate(lines: TextLine[]): { number: Word | null; date: Word[] } {
  const found = boxValues(lines);
  if (found.number || found.date.length) return found;
  const title = lines.find((l) => /товарная\s+накладная/i.test(l.text) && /\d/.test(l.text));
  if (!title) return found;
  const after = title.words.slice(title.words.findIndex((w) => /^накладная$/i.test(w.text)) + 1);
  return valuesOf({ ...title, words: after }, after[0]) ?? found;
}

function boxValues(lines: TextLine[]): { number: Word | null; date: Word[] } {
  const at = lines.findIndex((l) => /номер\s+док/i.test(l.text));
  if (at < 0) return { number: null, date: [] };
  const caption = lines[at].words.find((w) => /^номер$/i.test(w.text))!;
  for (const line of lines.slice(at + 1, at + 4)) {
    const v = valuesOf(line, caption);
    if (v) return v;
  }
  return { number: null, date: [] };
}

/** The number and date on one line of the box: the date (numeric or in words) and the last word left of it under `caption`. */
function valuesOf(line: TextLine, caption: Word | undefined): { number: Word | null; date: Word[] } | null {
  if (!caption) return null;
  const di = line.words.findIndex((w) => /^\d{1,2}[.,]\d{1,2}/.test(w.text));
  if (di < 0) {
    const inWords = wordDate(line.words);
    if (!inWords) return null;
    const left = line.words.slice(0, inWords.start).filter((w) => centerX(w) >= caption.left - caption.width && !/наклад/i.test(w.text));
    return { number: left[left.length - 1] ?? null, date: inWords.words };
  }
  // "01.08 2026": the date can come back split into two words.
  const date = line.words.slice(di, di + 2);
  if (
    !normalizeDate(
      date
        .map((w) => w.text)
        .join('')
        .replace(/(\d{2})(\d{4})$/, '$1.$2'),
    )
  )
    return null;
  const left = line.words.slice(0, di).filter((w) => centerX(w) >= caption.left - caption.width && !/наклад/i.test(w.text));
  return {
    number: left[left.length - 1] ?? null,
    date: normalizeDate(date[0].text.replace(/[.,]$/, '')) && /\d{4}/.test(date[0].text) ? [date[0]] : date,
  };
}

/**
 * Header of a TORG-12 (OKUD 0330212): seller from "Поставщик" (else "Грузоотправитель"), buyer from
 * "Плательщик" (else "Грузополучатель"), each caption read with up to two letters garbled ({@link caption}), number and date from the box beside "ТОВАРНАЯ НАКЛАДНАЯ".
 */
export function extractTorg12Header(lines: TextLine[], conf: FieldConfidence, photo = false): HeaderFields {
  const { number, date } = numberAndDate(lines);
  noteConf(conf, 'document.number', number ? [number] : []);
  noteConf(conf, 'document.date', date);
  const dateText = date
    .map((w) => w.text)
    .join('')
    .replace(/[.,]?(\d{4})$/, '.$1');
  capMendedDate(conf, dateText);
  return {
    number: number ? fixNumberPrefix(number.text) : null,
    date: date.length ? (normalizeDate(dateText) ?? parseDate(date.map((w) => w.text).join(' '))) : null,
    seller: confirmedByTwin(lines, 'seller', caption('поставщик'), caption('грузоотправитель'), conf, photo),
    buyer: confirmedByTwin(lines, 'buyer', caption('плательщик'), caption('грузополучатель'), conf, photo),
  };
}

/** How a name ends: with a letter, a digit or a closing quote or bracket; a point or comma after it is a speck or the next field's (a photo read `ИП … Ильич.` in both lines). */
const NAME_END = /[\p{L}\d»"”)]$/u;

/** Confidence (0..1) of a party name printed twice on the form and read the same both times ({@link confirmedByTwin}). */
export const TWIN_NAME_CONFIDENCE = 0.95;

/**
 * A TORG-12 party from its line (`label`, else `twin`), with its name's confidence raised to
 * {@link TWIN_NAME_CONFIDENCE} when the form prints it twice (Поставщик and Грузоотправитель, Плательщик and
 * Грузополучатель are mostly the same organisation) and both lines read to the same name: two prints of the same ink
 * misread the same way are rare. Not for a name holding a Latin letter or a glyph no name has, which the rus model
 * misreads the same way every time (it has no Latin N, G, R …), nor for one ending in a point or a comma, nor on a
 * phone photo (`photo`): its blur turns the same glyph into the same wrong one in both prints (`Хозторг` read
 * `Козторг` twice).
 */
export function confirmedByTwin(lines: TextLine[], role: string, label: Caption, twin: Caption, conf: FieldConfidence, photo = false): Party {
  const party = parsePartyWords(partyLine(lines, [label, twin]), role, conf);
  const own = lines.some((l) => l.words.some((w) => label.test(w.text)));
  if (!own) return party;
  const otherConf: FieldConfidence = {};
  const other = parsePartyWords(partyLine(lines, [twin]), role, otherConf);
  borrowTaxIds(party, other, role, conf, otherConf);
  if (photo || party.name == null || /[A-Za-z]/.test(party.name) || suspiciousName(party.name) || !NAME_END.test(party.name)) return party;
  if (other.name === party.name) conf[`${role}.name`] = Math.max(conf[`${role}.name`] ?? 0, TWIN_NAME_CONFIDENCE);
  return party;
}

/** Highest confidence (0..1) of a tax id taken from the twin line ({@link borrowTaxIds}): one reading, repaired. */
export const BORROWED_ID_CONFIDENCE = 0.85;

/**
 * The INN and KPP of a party whose own line's INN is unread or fails its length or check digits, from the twin line
 * (Грузополучатель for Плательщик, Грузоотправитель for Поставщик) when that names the same organisation (names
 * within a fifth of their letters) and its INN passes: a photo read thirteen digits on one line and the right
 * twelve on the other. The KPP comes along only when the own one is unread. Confidence: the twin's, at most
 * {@link BORROWED_ID_CONFIDENCE}. `party` and `conf` in place.
 */
export function borrowTaxIds(party: Party, other: Party, role: string, conf: FieldConfidence, otherConf: FieldConfidence): void {
  if (!party.name || !other.name) return;
  const a = nameLetters(party.name);
  const b = nameLetters(other.name);
  if (distance(a, b) > Math.max(a.length, b.length) / 5) return;
  if (validInn(party.inn) || !validInn(other.inn)) return;
  party.inn = other.inn;
  conf[`${role}.inn`] = Math.min(otherConf[`${role}.inn`] ?? 0, BORROWED_ID_CONFIDENCE);
  if (party.kpp == null && other.kpp != null) {
    party.kpp = other.kpp;
    conf[`${role}.kpp`] = Math.min(otherConf[`${role}.kpp`] ?? 0, BORROWED_ID_CONFIDENCE);
  }
}
