import { distance } from 'fastest-levenshtein';
import type { Party } from '../engine.port.js';
import { joinName, nameLetters, nameOf, noteConf, splitInnKpp, taxDigits, validInn } from './header.js';
import { TWIN_NAME_CONFIDENCE } from './header-torg12.js';
import type { FieldConfidence } from './items.js';
import type { TextLine, Word } from './words.js';

/** A party as the foot of a UPD prints it again, with the words it was read from. */
export interface FooterParty {
  name: string | null;
  inn: string | null;
  kpp: string | null;
  nameWords: Word[];
  idWords: Word[];
}

/** "Наименование экономического субъекта – составителя документа": the caption of lines [14] (left) and [19] (right). */
const CAPTION = /номическ\S*\s+субъект|субъекта?\s+\S?\s*состав|составителя\s+документ/i;
/** The form's line references printed after the values: "[14]", "(19]", "14]". */
const REFERENCE = /^[[(]?\d{2}[\])]$/;
/** Where the tax ids start: a label with ИНН or КПП in it (OCR keeps one of them: "ИННИЖГП"), or a run of 9+ digits. */
const ID_START = /ИНН|КПП|\d{9}/i;

/**
 * The seller and buyer as the UPD's transfer part prints them again at its foot (line [14] left, [19] right: "ООО
 * «…», ИНН/КПП 5503706360/550301001"): the caption line is found on the last page that has it, the value line is the
 * one below it, split where the caption's second "Наименование" starts (else at the caption's middle). Empty when the
 * document has no such caption (invoices, ТОРГ-12).
 */
export function footerParties(pages: TextLine[][]): { seller?: FooterParty; buyer?: FooterParty } {
  for (const lines of [...pages].reverse()) {
    const at = lines.findIndex((l) => CAPTION.test(l.text));
    if (at < 0 || at + 1 >= lines.length) continue;
    const caption = lines[at].words;
    const titles = caption.filter((w) => /наименован/i.test(w.text));
    const ends = caption.map((w) => w.left + w.width);
    const split = titles.length >= 2 ? titles[1].left - titles[1].height : (caption[0].left + Math.max(...ends)) / 2;
    const values = lines[at + 1].words.filter((w) => !REFERENCE.test(w.text));
    return {
      seller: footerParty(values.filter((w) => w.left < split)),
      buyer: footerParty(values.filter((w) => w.left >= split)),
    };
  }
  return {};
}

/** One half of the footer's value line: the name up to the tax ids, then "inn/kpp" (or the INN alone). */
function footerParty(words: Word[]): FooterParty | undefined {
  if (words.length === 0) return undefined;
  const idAt = words.findIndex((w, i) => i > 0 && ID_START.test(w.text));
  const nameWords = (idAt < 0 ? words : words.slice(0, idAt)).map((w, i, all) =>
    i === all.length - 1 ? { ...w, text: w.text.replace(/[,.;]+$/, '') } : w,
  );
  const idWords = idAt < 0 ? [] : words.slice(idAt).filter((w) => /\d{5}/.test(w.text));
  const [innText, kppText] = idWords.length ? splitInnKpp(idWords.map((w) => w.text).join('')) : [];
  const kpp = kppText ? taxDigits(kppText) : null;
  return {
    name: nameOf(joinName(nameWords.filter((w) => w.text !== ''))),
    inn: innText ? taxDigits(innText) : null,
    kpp: kpp?.length === 9 ? kpp : null,
    nameWords,
    idWords,
  };
}

/** Confidence (0..1) of a name the header and the footer read differently and that was pieced together from both. */
export const DISPUTED_NAME_CONFIDENCE = 0.5;

/**
 * Settles a UPD header party with its second print at the foot ({@link footerParties}); `conf` holds the header's
 * field confidences under `${role}.*` and is updated. The footer may name a commission agent instead of the seller
 * ("в т.ч. комиссионера / агента"), so it is used only when the header's name is unread or close to the footer's
 * (edit distance ≤ 30 % of its length):
 * - the same name read twice: its confidence rises to {@link TWIN_NAME_CONFIDENCE};
 * - an unread name: the footer's; two readings with as many words: per word the better-scored one, at
 *   {@link DISPUTED_NAME_CONFIDENCE} at most;
 * - an INN that is unread or fails its check digits: the footer's when that one passes them;
 * - an unread KPP: the footer's; the same KPP read twice rises to {@link TWIN_NAME_CONFIDENCE}, two different ones
 *   keep the header's at {@link DISPUTED_NAME_CONFIDENCE} at most.
 */
export function settleWithFooter(party: Party, footer: FooterParty | undefined, role: 'seller' | 'buyer', conf: FieldConfidence): Party {
  if (!footer) return party;
  const near =
    party.name == null ||
    (footer.name != null && distance(nameLetters(party.name), nameLetters(footer.name)) <= 0.3 * nameLetters(footer.name).length);
  if (!near) return party;
  const out = { ...party };
  const key = (f: string) => `${role}.${f}`;
  if (footer.name != null) {
    if (out.name == null) {
      out.name = footer.name;
      noteConf(conf, key('name'), footer.nameWords);
      conf[key('name')] = Math.min(conf[key('name')], DISPUTED_NAME_CONFIDENCE);
    } else if (nameLetters(out.name) === nameLetters(footer.name)) {
      conf[key('name')] = Math.max(conf[key('name')] ?? 0, TWIN_NAME_CONFIDENCE);
    } else {
      const a = out.name.split(' ');
      const b = footer.name.split(' ');
      if (a.length === b.length && footer.nameWords.length === b.length) {
        // Per word, the reading Tesseract scored higher; the header's own scores are not kept per word, so its
        // name's lowest score stands for each of its words.
        const own = (conf[key('name')] ?? 0) * 100;
        out.name = a.map((w, i) => (footer.nameWords[i].conf > own ? b[i] : w)).join(' ');
      }
      conf[key('name')] = Math.min(conf[key('name')] ?? 0, DISPUTED_NAME_CONFIDENCE);
    }
  }
  if (!validInn(out.inn) && validInn(footer.inn)) {
    out.inn = footer.inn;
    noteConf(conf, key('inn'), footer.idWords);
  }
  if (footer.kpp != null) {
    if (out.kpp == null) {
      out.kpp = footer.kpp;
      noteConf(conf, key('kpp'), footer.idWords);
    } else if (out.kpp === footer.kpp) conf[key('kpp')] = Math.max(conf[key('kpp')] ?? 0, TWIN_NAME_CONFIDENCE);
    else conf[key('kpp')] = Math.min(conf[key('kpp')] ?? 0, DISPUTED_NAME_CONFIDENCE);
  }
  return out;
}
