import type { Party } from '../engine.port.js';
import {
  capMendedDate,
  fixNumberPrefix,
  joinName,
  nameOf,
  noteConf,
  parseDate,
  splitInnKpp,
  stripRef,
  taxDigits,
  taxIdRole,
  untilGap,
  wordsAfter,
  type HeaderFields,
} from './header.js';
import type { FieldConfidence } from './items.js';
import type { TextLine, Word } from './words.js';

const NUMBER_SIGN = /^(№|N[oeо°º]?|Ne|Мо|Nº)$/;

/** "Счёт-фактура № 123 от 01.02.2026" (or "от «1» февраля 2026 г.") → number and date words. */
function numberAndDate(lines: TextLine[]): { number: Word[]; date: Word[] } {
  const all = lines.flatMap((l) => l.words);
  for (const line of lines) {
    const label = line.words.find((w) => /фактур/i.test(w.text));
    if (!label) continue;
    // The bold caption line can be split by the line grouping ("№ 5881" a few pixels lower than "от …"):
    // take every word to the right of the caption within three quarters of a word height of it (a whole height
    // took in the dashes of the empty line (1а) below, which split the date: "13 декабря - 2025").
    const cy = label.top + label.height / 2;
    const after = all.filter((w) => w.left > label.left && Math.abs(w.top + w.height / 2 - cy) < 0.75 * label.height).sort((a, b) => a.left - b.left);
    const ws = NUMBER_SIGN.test(after[0].text) ? after.slice(1) : after;
    const ot = ws.findIndex((w) => /^от$/i.test(w.text));
    if (ot <= 0) continue;
    const number = ws.slice(0, ot).map((w) => ({ ...w, text: w.text.replace(/^№/, '') }));
    return { number, date: dateWords(ws.slice(ot + 1, ot + 8)) };
  }
  return { number: [], date: [] };
}

/**
 * The words of the date after "от": one numeric word, or a date in words ("«12» марта 2026 г.", up to 6 words
 * with OCR-split quotes). Bold captions sometimes come back with a doubled word ("от от"), so the search starts at
 * each of the first words.
 */
function dateWords(after: Word[]): Word[] {
  const ws = after.filter((w) => !/^от$/i.test(w.text));
  for (let start = 0; start < Math.min(3, ws.length); start++) {
    for (let n = 1; n <= 6 && start + n <= ws.length; n++) {
      const part = ws.slice(start, start + n);
      if (parseDate(part.map((w) => w.text).join(' '))) return part;
    }
  }
  return [];
}

function party(lines: TextLine[], role: 'seller' | 'buyer', conf: FieldConfidence): Party {
  const label = role === 'seller' ? /^Продав[ец]+:?$/i : /^Покупател[ья]:?$/i;
  const innLabel = (text: string) => taxIdRole(text) === role;
  // "ИНН/КПП" loses letters on photos ("и ННКПП"): either half of the label will do beside the role word.
  const innLine = lines.find((l) => /ИНН|КПП/i.test(l.text) && l.words.some((w) => innLabel(w.text)));
  const idWords = innLine ? stripRef(untilGap(wordsAfter(innLine, innLabel))) : [];
  let at = lines.findIndex((l) => l.words.some((w) => label.test(w.text)));
  let nameWords = at < 0 ? [] : stripRef(untilGap(wordsAfter(lines[at], label)));
  if (at < 0 && innLine && idWords[0]) {
    // The caption "Продавец:" itself unread (small print beside the status box, a stamp over it): the form fixes
    // the order name (2), address (2а), ИНН/КПП (2б), so the name is the value-column text two rows above the tax ids.
    const i = lines.indexOf(innLine);
    const addrAt = [i - 1, i - 2].find((j) => j > 0 && /адр/i.test(lines[j].text));
    const x = idWords[0].left - idWords[0].height;
    if (addrAt != null) {
      at = addrAt - 1;
      nameWords = stripRef(untilGap(lines[at].words.filter((w) => w.left >= x)));
    }
  }
  // A name has letters: digits alone are another row's value (a tax-id pair taken by position), so the name is unread.
  if (!nameWords.some((w) => /\p{L}/u.test(w.text))) nameWords = [];
  // The address is the next row of the same value column; its label can be garbled where the UPD's status box
  // shares the line ("Адр ес:"), so the value is taken by position: words starting at the name's left edge.
  const addrLine = at < 0 ? undefined : lines.slice(at + 1, at + 3).find((l) => /адр|ес:/i.test(l.text));
  const valueX = nameWords[0] ? nameWords[0].left - nameWords[0].height : Infinity;
  const addrWords = addrLine ? stripRef(untilGap(addrLine.words.filter((w) => w.left >= valueX))) : [];
  const [innText, kppText] = splitInnKpp(idWords.map((w) => w.text).join(''));
  noteConf(conf, `${role}.name`, nameWords);
  noteConf(conf, `${role}.address`, addrWords);
  noteConf(conf, `${role}.inn`, idWords);
  noteConf(conf, `${role}.kpp`, idWords);
  const kpp = kppText ? taxDigits(kppText) : null;
  return {
    name: nameOf(joinName(nameWords)),
    inn: innText ? taxDigits(innText) : null,
    kpp: kpp && kpp.length === 9 ? kpp : null,
    address: joinName(addrWords),
  };
}

/**
 * Header of a UPD or an invoice (Decree 1137 layout): line (1) "Счёт-фактура № … от …", (2) "Продавец:",
 * (2а) "Адрес:", (2б) "ИНН/КПП продавца: inn/kpp", (6) "Покупатель:", (6а), (6б). Labels are found anywhere in
 * a line because the UPD's left status box shares lines with them.
 */
export function extractUpdHeader(lines: TextLine[], conf: FieldConfidence): HeaderFields {
  const { number, date } = numberAndDate(lines);
  noteConf(conf, 'document.number', number);
  noteConf(conf, 'document.date', date);
  capMendedDate(conf, date.map((w) => w.text).join(' '));
  const num = number
    .map((w) => w.text)
    .join('')
    .trim();
  return {
    number: num === '' ? null : fixNumberPrefix(num),
    date: date.length ? parseDate(date.map((w) => w.text).join(' ')) : null,
    seller: party(lines, 'seller', conf),
    buyer: party(lines, 'buyer', conf),
  };
}
