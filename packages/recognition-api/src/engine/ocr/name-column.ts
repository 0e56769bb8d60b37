import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { RecognitionFailedError } from '../engine.port.js';
import { FORMS, findColumnRow, withRuleSpans, type ColumnRow } from '../extract/columns.js';
import { centerX, centerY, groupLines, median, right, type VerticalRule, type Word } from '../extract/words.js';
import type { PreparedPage } from './preprocess.js';
import { runTesseract, stoppable, type TesseractCall } from './tesseract.js';
import { estimateSkew, levelRules, levelWords } from './skew.js';
import { parseTsv } from './tsv.js';
import { PHOTO_EXTENDED_LANGUAGE } from './photo-model.js';
import {
  isCompound,
  loadRussianWords,
  nearestCompound,
  nearestLookalikeWord,
  nearestNounLemma,
  nearestWord,
  onlyWordOneEditAway,
  wordFromChoices,
  type LetterChoices,
  type RussianWords,
} from '../extract/russian-words.js';
import { HOCR_CHOICE_ARGS, parseHocr, type WordWithChoices } from './hocr.js';
import { toCyrillic } from '../extract/script.js';
import { isNameUnit, isUnitRatio } from '../extract/items.js';

/** The name column's label in each form (columns.ts). */
const NAME_LABEL = { upd: '1а', invoice: '1а', torg12: '2' } as const;
const MARGIN = 20;
/** Latin letters with no Cyrillic look-alike in print: one of them is evidence that a word is Latin. */
const STRONG_LATIN = /[bdfghijlnqrstuvwzDFGIJLNQRSUVWZ]/;
/** Cyrillic letters with no Latin look-alike: a confident word holding one is a Russian word. */
const ONLY_CYRILLIC = /[бвгджзийлпфцчшщъыьэюяБГДЖЗИЙЛПФЦЧШЩЪЫЬЭЮЯ]/;
/** Glyphs the rus model returns for Latin letters it lacks (`Kпау{`, `АНаз)ез!дп`, `Сегез#`, `С$`). */
const JUNK_GLYPH = /[!$#{}()[\]\\|@©®?]/;
const LATIN = /[A-Za-z]/;

/** The table's name column on a page: x range and the top of the rows (page px), or null without a column row. */
export function nameColumn(words: Word[], rules: VerticalRule[]): { left: number; right: number; top: number } | null {
  const lines = groupLines(words);
  let best: { row: ColumnRow; label: string } | null = null;
  for (const t of ['upd', 'invoice', 'torg12'] as const) {
    const row = findColumnRow(lines, FORMS[t], rules);
    if (row && (!best || (row.matched ?? 0) > (best.row.matched ?? 0))) best = { row, label: NAME_LABEL[t] };
  }
  if (!best) return null;
  const row = best.row.spans ? best.row : withRuleSpans(best.row, rules);
  const span = row.spans?.get(best.label);
  if (span && Number.isFinite(span[0]) && Number.isFinite(span[1])) return { left: span[0], right: span[1], top: row.y };
  const xs = [...row.centers.values()].sort((a, b) => a - b);
  const cx = row.centers.get(best.label);
  if (cx === undefined) return null;
  const i = xs.indexOf(cx);
  const left = i > 0 ? (xs[i - 1] + cx) / 2 : cx - 300;
  const rightX = i < xs.length - 1 ? (cx + xs[i + 1]) / 2 : cx + 300;
  return { left, right: rightX, top: row.y };
}

/** Below this score (0–100) an eng-model reading of a name word is a guess, never taken ({@link prefersLatin}). */
export const MIN_LATIN_SCORE = 20;
/** From this score (0–100) an eng-model reading may put letters where the rus model read a number ({@link prefersLatin}). */
export const SURE_LATIN_SCORE = 90;
/** A rus reading of a number: digits, and at most one lower-case letter after them (`50`, `5е`), with punctuation. */
const NUMBER_READ = /^\d+[a-zа-яё]?[.,;:)]*$/;
const digits = (text: string) => text.replace(/\D/g, '').length;

/**
 * Whether the `rus+eng` reading `cross` should replace the `rus` words `main` it covers: it must hold a Latin letter
 * with no Cyrillic twin (or the rus words hold a glyph the rus model uses for Latin letters it lacks), must not
 * replace a confident Russian word (one with a Cyrillic-only letter), and must be at least about as confident —
 * except over rus words of look-alike capitals and digits only (`МСК` for `NGK`), where its Latin-only letter
 * decides at a fair confidence (≥ 50). Never a reading under {@link MIN_LATIN_SCORE}; nor one of four characters
 * or fewer, below {@link SURE_LATIN_SCORE}, with fewer digits than a number the rus model read ({@link NUMBER_READ});
 * nor lower-case Latin letters only over lower-case Cyrillic, nor one over a unit symbol.
 */
export function prefersLatin(cross: Word, main: Word[], mainIsWord?: boolean): boolean {
  if (main.length === 0 || !LATIN.test(cross.text) || cross.conf < MIN_LATIN_SCORE) return false;
  const mainText = main.map((w) => w.text).join('');
  const mainConf = Math.min(...main.map((w) => w.conf));
  // A short number read by rus (digits, at most a lower-case letter after them) against fewer digits read by eng,
  // not sure: the digits' Latin look-alikes (`50`/`SO`, `750`/`7S0`, `5е`/`Se`). A longer code goes the other way
  // (`6081550` is the rus model's `GDB1550`), and so does a sure eng reading (`550`/`SSD`); junk digits in a garbled
  // word (`K1-45`) decide nothing.
  const alnum = cross.text.replace(/[^\p{L}\p{N}]/gu, '').length;
  if (NUMBER_READ.test(mainText) && digits(cross.text) < digits(mainText)) {
    // A number with a lower-case suffix (`5е`, `6а`: a category, a grade) is no Latin word of two letters at any score.
    if (/^\d+[a-zа-яё]/.test(mainText) && alnum <= 2) return false;
    if (alnum <= 4 && cross.conf < SURE_LATIN_SCORE) return false;
  }
  // Lower-case Latin only over a word with lower-case Cyrillic (`мм`/`ww`, `до`/`go`, `пищевая`/`magesaor`):
  // catalogues write no brand so; and a unit symbol (`Вт`/`Br`) stays what it is.
  if (/^[a-z]+[.,;:)]*$/.test(cross.text) && /[а-яё]/.test(mainText)) return false;
  if (isUnitText(mainText)) return false;
  const junk = JUNK_GLYPH.test(mainText);
  if (!STRONG_LATIN.test(cross.text) && !junk) return false;
  const russian = ONLY_CYRILLIC.test(mainText);
  // A dictionary that does not know the rus word (`Сегезй`) takes away the protection of its Cyrillic-only letter.
  if (!junk && mainConf >= 85 && russian && mainIsWord !== false) return false;
  // Look-alike capitals and digits only ("МСК", "В-410А"): the Latin-only letter of the other reading decides.
  if (!russian && STRONG_LATIN.test(cross.text)) return cross.conf >= 50;
  return cross.conf >= mainConf - 5 || (junk && cross.conf >= 60);
}

/**
 * Reads the item table's name column a second time with `rus+eng` and takes, word by word, the Latin reading where
 * the rus model garbled a brand or model code (`Эсппеаег` → `Schneider`, `ВКВбЕ-11` → `BKR6E-11`): see
 * {@link prefersLatin}. The whole page is read with `rus` only, because `rus+eng` on a page turns Russian words Latin
 * (`Масло` → `Macno`); the column crop costs one Tesseract call. A photo's crop is read once more with the extended
 * photo model where it is shipped (photo-model.ts `PHOTO_EXTENDED_MODEL`; one more call), and its words without a
 * Latin letter, `Ø` or `²` are merged last by {@link mergeNameReadings} (`Пагпжа` → `Папка`; a line the page lost
 * may be added from it too). The eng and extended readings run beside the rus+eng one, each its own process, and the
 * eng one is stopped when the merge asks nothing of it. Pages without a column-number row are returned
 * unchanged, and so is a page whose second read fails (the eng data missing, a Tesseract error). Page px in and out.
 * @throws RecognitionFailedError `timeout` or `engine_unavailable` from a reading the page waits for.
 */
export async function rereadNameColumn(
  words: Word[],
  page: Pick<PreparedPage, 'png' | 'width' | 'height' | 'rules'> & { photo?: boolean },
  call: TesseractCall,
): Promise<Word[]> {
  if (call.languages && call.languages !== 'rus') return words; // the page itself was read with Latin already
  const found = locateNameColumn(words, page.rules, page.width, page.height);
  if (!found) return words;
  const { names, box, h } = found;
  const crop = await sharp(page.png)
    .extract(box)
    .extend({ top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN, background: '#ffffff' })
    .png()
    .toBuffer();
  // The three readings of the crop are independent Tesseract processes: the eng and extended ones start at once beside
  // the rus+eng one, so a page waits for the longest of them on a second core and not for their sum; the eng reading,
  // needed only when the merge finds a Latin candidate, is stopped as soon as the merge finds none (mergeEngReading).
  const usable = page.photo && call.tessdataDir && existsSync(join(call.tessdataDir, `${PHOTO_EXTENDED_LANGUAGE}.traineddata`));
  const engRead = readAhead(crop, ['-l', 'eng', '--psm', '6', '--dpi', '300', 'tsv'], call);
  const extendedRead = usable ? readAhead(crop, ['-l', PHOTO_EXTENDED_LANGUAGE, '--psm', '6', '--dpi', '300', 'tsv'], call) : null;
  try {
    const cross = await readOrNull(runTesseract(crop, ['-l', 'rus+eng', '--psm', '6', '--dpi', '300', ...HOCR_CHOICE_ARGS, 'hocr'], call), parseHocr);
    // A non-zero exit (e.g. no eng data) leaves the page as read; a timeout or a killed Tesseract goes up.
    if (!cross) return words;
    const place = (ws: Word[], key: string) =>
      ws.map((c) => ({ ...c, left: c.left - MARGIN + box.left, top: c.top - MARGIN + box.top, line: `${key}.${c.line}` }));
    const dict = await loadRussianWords();
    const inBox = (w: Word) =>
      centerX(w) > box.left && centerX(w) < box.left + box.width && centerY(w) > box.top && centerY(w) < box.top + box.height;
    const placed = place(cross, 'names');
    const merged = spellNames(mergeNameReadings(words, names, placed, h, dict), inBox, dict, page.photo, placed);
    const latinMerged = await mergeEngReading(merged, engRead, { inBox, place, placed, h, dict });
    // A photo's column read once more with the extended photo model, which reads a photo's Russian words best and its
    // codes worst (photo-model.ts): its words without a Latin letter, `Ø` or `²` are weighed by the dictionary rules of
    // mergeNameReadings, last, so a word the other readings settled as Latin stays (`Knauf` against `Клуб`).
    const extended = extendedRead ? await extendedRead.words : null;
    if (!extended) return latinMerged;
    const russian = place(extended, 'extended').filter((w) => !/[A-Za-zØ²]/.test(w.text));
    return mergeNameReadings(latinMerged, latinMerged.filter(inBox), russian, h, dict);
  } finally {
    // A reading not awaited (the rus+eng one failed or timed out) stops here; one that finished is not touched.
    engRead.stop();
    extendedRead?.stop();
  }
}

/**
 * The eng reading of the name column crop (started by {@link rereadNameColumn}) merged into `merged`
 * (mergeLatinReading, agreedLatinWords); `merged` itself when no word asks for it or the reading failed. Page px.
 */
async function mergeEngReading(
  merged: Word[],
  engRead: ReadAhead,
  ctx: { inBox: (w: Word) => boolean; place: (ws: Word[], key: string) => Word[]; placed: Word[]; h: number; dict: RussianWords | null },
): Promise<Word[]> {
  const { inBox, place, placed, h, dict } = ctx;
  if (!merged.some((w) => inBox(w) && latinCandidate(w.text)) && !placed.some((c) => LATIN_WORD.test(c.text))) {
    engRead.stop(); // nothing asks for it: its CPU goes to the readings still running
    return merged;
  }
  const latin = await engRead.words;
  if (!latin) return merged;
  const third = place(latin, 'latin');
  const coded = mergeLatinReading(merged, merged.filter(inBox), third, h);
  return agreedLatinWords(coded, coded.filter(inBox), placed, third, h, dict);
}

/** A Tesseract output parsed, or null when Tesseract exited with an error (`engine_error`); other failures go up. */
async function readOrNull<T>(output: Promise<string>, parse: (text: string) => T): Promise<T | null> {
  try {
    return parse(await output);
  } catch (err) {
    if (err instanceof RecognitionFailedError && err.reason === 'engine_error') return null;
    throw err;
  }
}

/** A TSV reading of the crop running beside others: its words (null on `engine_error`) and a way to stop it. */
interface ReadAhead {
  readonly words: Promise<Word[] | null>;
  /** Kills the Tesseract process if it still runs; `words` is then never to be awaited. */
  readonly stop: () => void;
}

/**
 * Starts a TSV reading of the crop now, to be awaited later or stopped. It has its own abort signal joined to the
 * request's, so stopping it leaves the others running and the request's timeout still ends it. Its rejection is
 * marked handled at once, so a reading that is stopped never surfaces as an unhandled rejection; one that is awaited
 * still throws its timeout.
 */
function readAhead(crop: Buffer, args: string[], call: TesseractCall): ReadAhead {
  const own = stoppable(call);
  const words = readOrNull(runTesseract(crop, args, own.call), parseTsv);
  words.catch(() => undefined);
  return { words, stop: own.stop };
}

/** A Latin word of four letters or more with a letter that has no Cyrillic twin: a brand or a name in Latin. */
const LATIN_WORD = /^[«"'“„(]*(?=[A-Za-z]*[bdfghijlnqrstuvwzDFGIJLNQRSUVWZ])[A-Za-z]{4,}[»"'”),.;:]*$/;

/**
 * Word by word, a Latin word that the column's rus+eng reading (`cross`) and its eng reading (`latin`) both give,
 * letter for letter (`Rotband` in both where the rus reading has `Вобапа`), over the one column word under it
 * (`column`, also in `words`) when that has as many letters give or take one, and is no Russian word form
 * ({@link RussianWords}) and no unit. Two models
 * agreeing on a whole Latin word of four letters or more ({@link LATIN_WORD}) is evidence their low scores on a
 * blurred photo are not; {@link prefersLatin} alone asks the cross word to be about as sure as the rus one. The eng
 * word must score {@link MIN_EXPLAINED_LATIN_SCORE}; a lower-case Latin word over a lower-case Cyrillic one is never taken
 * (as in {@link prefersLatin}). Pure; `dict` null changes nothing.
 */
export function agreedLatinWords(words: Word[], column: Word[], cross: Word[], latin: Word[], h: number, dict: RussianWords | null): Word[] {
  if (!dict) return words;
  const sameLine = (a: Word, b: Word) => centerX(a) > b.left && centerX(a) < right(b) && Math.abs(centerY(a) - centerY(b)) < h / 2;
  const replaced = new Set<Word>();
  const added: Word[] = [];
  for (const e of latin) {
    if (e.conf < MIN_EXPLAINED_LATIN_SCORE || !LATIN_WORD.test(e.text)) continue;
    if (!cross.some((c) => c.text === e.text && sameLine(c, e))) continue;
    const covered = column.filter((m) => !replaced.has(m) && sameLine(m, e));
    // One word for one word, of about its length: a box over two words (`помол №`) or a shorter word read for a
    // longer one (`Dasma` over `Ламиназ`) is no reading of it.
    if (covered.length !== 1) continue;
    const [under] = covered;
    if (Math.abs(letters(under.text).length - letters(e.text).length) > 1) continue;
    if (under.text === e.text || /[A-Za-z]{2}/.test(under.text)) continue; // already Latin: the other rules' business
    // Lower-case Latin over lower-case Cyrillic, as in prefersLatin: catalogues print a brand capitalised, and two
    // reads agreeing on `vemkunp` over `вемкипр` is a Russian word both models missed.
    if (/^[a-z]+[.,;:)]*$/.test(e.text) && /^[а-яё]/.test(letters(under.text))) continue;
    if (isRussianWord(toCyrillic(under.text), dict) || isUnitText(under.text)) continue;
    replaced.add(under);
    added.push({ ...e, conf: Math.min(e.conf, under.conf, UNSETTLED_CONFIDENCE) });
  }
  return added.length === 0 ? words : [...words.filter((w) => !replaced.has(w)), ...added];
}

/** Below this Tesseract score (0–100) a name word unknown to the dictionary is spelled ({@link spellNames}). */
export const SPELL_BELOW = 80;

/**
 * From this length a confident photo word the dictionary does not know may take any one-edit spelling, when it is
 * the only known form that near (a lost letter, `перфорацонный`; a letter no look-alike explains, `кронштеин`); shorter
 * words have rivals too often for a lone neighbour to be evidence against Tesseract's score.
 */
export const SURE_SPELL_MIN_LENGTH = 7;

/**
 * Corrects the name column's unsure words (`inColumn`) by the dictionary: a Cyrillic word of 5 letters or more (each
 * part of a hyphenated one) that the dictionary does not know, scored below {@link SPELL_BELOW}, becomes the only
 * known word form one edit away ({@link nearestWord}: `оцинковакный` → `оцинкованный`, `шлифовалъная` →
 * `шлифовальная`), a capital first letter kept; not a word in capitals only (a brand), nor a form of Tesseract's
 * own word list ({@link RussianWords.isCommon}: `конвектор`, a catalogue word Hunspell lacks). The word keeps its low score,
 * so the name is not reported as sure for it. A compound of known parts (`газобетонный`, {@link isCompound}) counts as
 * known; an unsure word with no known form near may become the only compound one edit away ({@link nearestCompound}:
 * `газюбетонный` → `газобетонный`). A four-letter part of a hyphenated word whose other parts are known is spelled
 * too, by a look-alike letter only (`Фасад-Люжс` → `Фасад-Люкс`), and so is a confident word on a photo (`photo`),
 * by one look-alike letter or two in a long word ({@link nearestLookalikeWord}). A capitalised word the dictionary
 * knows only as an inflected form becomes the only noun in its dictionary form one look-alike letter away
 * ({@link nearestNounLemma}). With `readings` (the column's rus+eng read with each glyph's runner-up letters,
 * hocr.ts; page px), a word none of these rules spells becomes the only known form one or two of Tesseract's own
 * runner-up letters give ({@link wordFromChoices}: `шойбо` → `шайба`). A word with no such neighbour, or two,
 * stays as read; words in quotes of any kind are spelled like others. `dict` null returns `words`.
 */
export function spellNames(
  words: Word[],
  inColumn: (w: Word) => boolean,
  dict: RussianWords | null,
  photo = false,
  readings: WordWithChoices[] = [],
): Word[] {
  if (!dict) return words;
  return words.map((w) => {
    const sure = w.conf >= SPELL_BELOW;
    if (!inColumn(w) || (sure && !photo)) return w;
    const m = /^([«"'“„‘(]*)([А-Яа-яЁё-]+)([»"'”’“),.;:]*)$/.exec(w.text);
    if (!m) return w;
    // The glyphs' letters are looked up only when no edit rule spells a part: most words never need them.
    let letters: LetterChoices[] | null | undefined;
    const glyphs = () => {
      if (letters === undefined) letters = glyphLetters(w, readings);
      return letters;
    };
    let changed = false;
    // A form of Tesseract's own word list counts as known (`конвектор`, `омыватель`: catalogue words Hunspell lacks,
    // each one edit from a form it has); a misread that lands on such a form is left as it is.
    const known = (part: string) => dict.has(part) || dict.isCommon(part.toLowerCase()) || isCompound(part.toLowerCase(), dict);
    const spell = (part: string, lookalikeOnly: boolean, at: number) => {
      const lower = part.toLowerCase();
      const rules = lookalikeOnly
        ? (nearestWord(lower, dict, true) ??
          nearestLookalikeWord(lower, dict) ??
          (lower.length >= SURE_SPELL_MIN_LENGTH ? onlyWordOneEditAway(lower, dict) : null))
        : (nearestWord(lower, dict) ?? nearestLookalikeWord(lower, dict) ?? nearestCompound(lower, dict));
      // Else the letters Tesseract itself weighed for the word's glyphs (`шойбо` → `шайба`).
      const choices = rules ? null : glyphs();
      const near = rules ?? (choices ? wordFromChoices(choices.slice(at, at + part.length), dict) : null);
      if (!near) return part;
      changed = true;
      return part[0] === part[0].toUpperCase() ? near[0].toUpperCase() + near.slice(1) : near;
    };
    // Capitals only are a brand or an abbreviation, which the dictionary does not judge.
    const judged = (part: string) => part === part.toUpperCase() || known(part);
    // Where each part starts in the word's text, for its glyphs' letters.
    const split = m[2].split('-');
    const starts = split.map((_, i) => m[1].length + split.slice(0, i).reduce((n, p) => n + p.length + 1, 0));
    const long = split.map((part, i) => (part.length < 5 || judged(part) ? part : spell(part, sure, starts[i])));
    // A four-letter part of a hyphenated word whose other parts are known once spelled (`Фэасад-Люжс`) is Russian
    // too, and is spelled by a look-alike letter only: short words have too many neighbours for any other edit.
    const parts = long.map((part, i) =>
      part.length === 4 && long.length > 1 && !judged(part) && long.every((p, j) => j === i || known(p)) ? spell(part, true, starts[i]) : part,
    );
    // A capitalised word the dictionary knows only as an inflected form (`Рейха`, `Ступ`) where an item name puts
    // its head noun: the only noun one look-alike letter away (`Рейка`, `Стул`). Not in quotes: a quoted word is a
    // trade or model name, whatever its form.
    if (!changed && !m[1] && /^[А-ЯЁ][а-яё]{2,}$/.test(parts[0]) && dict.has(parts[0])) {
      const noun = nearestNounLemma(parts[0].toLowerCase(), dict);
      if (noun) {
        changed = true;
        parts[0] = noun[0].toUpperCase() + noun.slice(1);
      }
    }
    return changed ? { ...w, text: `${m[1]}${parts.join('-')}${m[3]}` } : w;
  });
}

/**
 * The letters of a word's glyphs with the readings Tesseract weighed for each (one entry per character of `w.text`):
 * the word's own glyphs when it was read with them, else those of the one reading in `readings` (page px, the name
 * column's rus+eng read) on the same line whose box holds the word's centre and that has as many glyphs as the word
 * has characters, each glyph's readings turned Cyrillic where a Latin letter has a Cyrillic twin; null otherwise.
 */
function glyphLetters(w: Word, readings: WordWithChoices[]): LetterChoices[] | null {
  const own = (w as WordWithChoices).glyphs;
  const chars = [...w.text];
  const source =
    own && own.map((g) => g.text).join('') === w.text
      ? own
      : readings.find(
          (r) =>
            r.glyphs?.length === chars.length && centerX(w) > r.left && centerX(w) < right(r) && Math.abs(centerY(w) - centerY(r)) < r.height / 2,
        )?.glyphs;
  if (!source || source.length !== chars.length) return null;
  return chars.map((text, i) => ({
    text,
    choices: [source[i], ...source[i].choices].map((c) => ({ text: toCyrillic(c.text), conf: c.conf })),
  }));
}

/**
 * Whether a name word may be a Latin code or brand that neither the rus nor the rus+eng read got (`АКМО00517` for
 * `AKN000517`, `МКТ` for `NKT`, `МУН-)` for `NUH-J`, `И!` for `II`): it has letters, no lower-case Cyrillic
 * letter (Russian words and units are left alone), and no Cyrillic-only letter unless a glyph the rus model puts for
 * Latin letters it lacks is there too; a bracket that opens the word is its punctuation, no such glyph (`(КПБ`, the
 * abbreviation that opens a name's part in brackets, is no `(KNB`).
 */
export function latinCandidate(text: string): boolean {
  const t = text.replace(SIX_AS_BE, '6');
  // A bracket that opens a word is its punctuation (`(КПБ`, a name's second part in brackets), not a glyph for a
  // Latin letter: the rus model puts a bracket for a J after letters (`МУН-)`).
  return /\p{L}/u.test(t) && !/[а-яё]/.test(t) && (!ONLY_CYRILLIC.test(t) || JUNK_GLYPH.test(t.replace(/^\(+/, '')));
}

/** A `б` between capitals or digits: the rus model's reading of a 6 inside a code (`ВКВбЕ-11`); no Russian word has it. */
const SIX_AS_BE = /(?<=[\p{Lu}\d])б(?=[\p{Lu}\d])/gu;

/**
 * Word by word, a third reading of the name column with `eng` alone (`latin`, page px) over the words of the column
 * after {@link mergeNameReadings} (`column`, also in `words`): an eng word replaces the column words under it (same
 * line, their centres inside its box) when all of them are {@link latinCandidate}s, it has two or more letters or a
 * digit, a Latin letter with no Cyrillic twin, no Cyrillic letter, a confidence of at least 60 (at least
 * {@link MIN_EXPLAINED_LATIN_SCORE} when it explains the rus reading, {@link explainedByMissingLatin}), and it is not the same
 * word once look-alike letters are folded (`KC-250` over `КС-250` is no correction: the glyphs are the same, and the
 * script is left to the rules of extract/script.ts). The eng model has every Latin letter the rus model lacks and
 * no Cyrillic ones, so it is asked only about words that hold no Russian letter. Pure.
 */
export function mergeLatinReading(words: Word[], column: Word[], latin: Word[], h: number): Word[] {
  const replaced = new Set<Word>();
  const added: Word[] = [];
  for (const e of latin) {
    if (e.conf < MIN_EXPLAINED_LATIN_SCORE || !STRONG_LATIN.test(e.text) || /[А-Яа-яЁё]/.test(e.text) || !/\d|\p{L}.*\p{L}/u.test(e.text)) continue;
    const covered = column.filter(
      (m) => !replaced.has(m) && centerX(m) > e.left && centerX(m) < right(e) && Math.abs(centerY(m) - centerY(e)) < h / 2,
    );
    if (covered.length === 0 || !covered.every((m) => latinCandidate(m.text))) continue;
    const mainText = covered.map((m) => m.text).join('');
    if (sameWord(mainText, e.text)) continue;
    // An eng reading that explains the rus one but for a run digit read once more or once less (`ATNO000124` over
    // `АТМО00124`) gives its letters only: the rus reading's characters stay, the count of the run included.
    const mended = e.conf < 60 && !explainedByMissingLatin(mainText, e.text) ? mendedByMissingLatin(mainText, e.text) : e.text;
    if (mended === null) continue;
    for (const m of covered) replaced.add(m);
    added.push(mended === e.text ? e : { ...e, text: mended });
  }
  return added.length === 0 ? words : [...words.filter((w) => !replaced.has(w)), ...added];
}

/**
 * Tesseract scores an eng word at or above this ({@link mergeLatinReading}) before it may replace rus words whose
 * reading it explains letter by letter ({@link explainedByMissingLatin}); other eng words need 60. A blurred photo's
 * eng scores are low even where it reads a code right (`R-410A` at 12, `NYM` at 55 on the development photos).
 */
export const MIN_EXPLAINED_LATIN_SCORE = 10;

/**
 * What the rus model returns for the Latin capitals it has no glyph for, as seen in the development photos' codes
 * (`R` → `В`/`Я`/`Ю`, `N` → `И`/`М`/`Н`, `G` → `С`, `D` → `О`/`0`, `I` → `1`/`!`/`|`, `J` → a bracket, `L` → `Г`,
 * `S` → `5`/`$`), and the `б` it reads for a code's 6 (upper case: the readings are compared in upper case).
 */
const RUS_FOR_LATIN: Record<string, string> = {
  R: 'ВЯРЮ',
  N: 'ИМН№',
  G: 'С',
  D: 'О0Д',
  I: '1!|Г',
  J: ')|',
  L: 'Г1',
  S: '5$',
  U: 'ИЦ',
  V: 'У',
  F: 'Г',
  Q: 'О0',
  W: 'Ш',
  Z: '2',
  '6': 'Б',
};

/**
 * Whether an eng reading of a word differs from its rus reading only where the rus model lacks the Latin letter:
 * letters and digits in the same order, equal once look-alike letters are folded, except positions where the eng
 * reading has a Latin capital the rus model has no glyph for and the rus reading has what that model puts for it
 * ({@link RUS_FOR_LATIN}): `В-410А` / `R-410A`, `МУМ-)` / `NYM-J`, `ВХ750М!-СЮ` / `BX750MI-GR`. The glyphs the rus
 * model puts for I, J and N (`!`, `|`, a closing bracket, `№`) count as characters; other punctuation is left out.
 * A zero and the letter O count as the same character. Two readings that agree everywhere else are evidence
 * for the eng letters that a low eng score (on a blurred photo) does not take away. Case is ignored; at least one
 * such position is needed.
 */
export function explainedByMissingLatin(rus: string, eng: string): boolean {
  // Letters and digits only, or with the glyphs that stand for letters (`!` and `|` for I, a closing bracket for
  // J): a bar may as well be a rule's remnant, so both ways are tried.
  const plain = (text: string) => [...text.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase()];
  const glyphs = (text: string) => [
    ...text
      .replace(/[^\p{L}\p{N}!|)}\]№]/gu, '')
      .replace(/[}\]]/g, ')')
      .toUpperCase(),
  ];
  return explains(plain(rus), plain(eng)) || explains(glyphs(rus), glyphs(eng));
}

/**
 * The rus reading `rus` of a code with the Latin letters of its eng reading `eng` put in, when the two differ only
 * where the rus model lacks the Latin letter ({@link explainedByMissingLatin}) and by one digit of a run that one
 * of them read once more (`АТМО00124` / `ATNO000124` → `АТNО00124`; the script is then settled by extract/script.ts,
 * the run's length is the rus reading's: neither model counts a run of digits better, and the rus reading holds
 * every other character). Null otherwise, and for readings of equal length (those are taken whole). Letters and
 * digits are compared; the rus reading's punctuation stays.
 */
export function mendedByMissingLatin(rus: string, eng: string): string | null {
  const out = [...rus];
  const at = out.flatMap((ch, i) => (/[\p{L}\p{N}]/u.test(ch) ? [i] : []));
  const r = at.map((i) => out[i].toUpperCase());
  const e = [...eng.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase()];
  const digitLike = (c: string) => /[0-9OО]/.test(c);
  const same = (a: string | undefined, b: string | undefined) =>
    a !== undefined && b !== undefined && zeroForO(toCyrillic(a)) === zeroForO(toCyrillic(b));
  const inRun = (s: string[], k: number) => zeroForO(s[k]) === zeroForO(s[k - 1]) || zeroForO(s[k]) === zeroForO(s[k + 1]);
  const runs = (s: string[]) => s.flatMap((c, k) => (digitLike(c) && inRun(s, k) ? [k] : []));
  // `pairs` aligns each rus position with its eng character (undefined where the rus reading has the extra digit).
  let pairs: (string | undefined)[] | null = null;
  if (e.length === r.length + 1) {
    for (const k of runs(e)) {
      const shorter = e.filter((_, j) => j !== k);
      if (explains(r, shorter)) pairs = shorter;
    }
  } else if (r.length === e.length + 1) {
    for (const k of runs(r)) {
      const shorter = r.filter((_, j) => j !== k);
      if (explains(shorter, e)) pairs = [...e.slice(0, k), undefined, ...e.slice(k)];
    }
  }
  if (!pairs) return null;
  pairs.forEach((c, j) => {
    if (c !== undefined && !same(c, r[j])) out[at[j]] = c;
  });
  return out.join('');
}

const zeroForO = (c: string | undefined) => (c && /[OО]/.test(c) ? '0' : c);

/** {@link explainedByMissingLatin} on two character lists. */
function explains(r: string[], e: string[]): boolean {
  if (r.length === 0 || r.length !== e.length) return false;
  let missing = 0;
  for (let i = 0; i < r.length; i++) {
    // A zero and the letter O are one glyph in a code: either model may read either (extract/script.ts settles it).
    if (zeroForO(toCyrillic(e[i])) === zeroForO(toCyrillic(r[i]))) continue;
    if (!RUS_FOR_LATIN[e[i]]?.includes(r[i])) return false;
    missing++;
  }
  return missing > 0;
}

/**
 * Where the name column's words are on a page read before its small tilt is levelled out of the word boxes
 * (page-ocr.ts): the column-number row is found on levelled copies of the words and rules (a scan turned 1° spreads
 * the row over two text lines), and the crop box (page px, in the image as it is) is the column widened by the
 * tilt's sideways drift over half the page, from the first name word down to the last. Null without a column row,
 * words in the column or a box of at least 4 × 1 text heights.
 */
export function locateNameColumn(
  words: Word[],
  rules: VerticalRule[],
  width: number,
  height: number,
): { names: Word[]; box: { left: number; top: number; width: number; height: number }; h: number } | null {
  const skew = estimateSkew(words);
  const levelled = levelWords(words, skew, width / 2, height / 2);
  const col = nameColumn(levelled, levelRules(rules, skew, width / 2, height / 2));
  if (!col) return null;
  const h = median(words.map((w) => w.height)) || 20;
  const inCol = (w: Word) => centerX(w) > col.left && centerX(w) < col.right && centerY(w) > col.top + h;
  const names = words.filter((_, i) => inCol(levelled[i]));
  if (names.length === 0) return null;
  const drift = Math.ceil(Math.abs(Math.tan((skew * Math.PI) / 180)) * (height / 2));
  const left = Math.max(0, Math.round(col.left + 2 - drift));
  const top = Math.max(0, Math.round(Math.min(...names.map((w) => w.top)) - h / 2));
  const box = {
    left,
    top,
    width: Math.min(width, Math.round(col.right - 2 + drift)) - left,
    height: Math.min(height, Math.round(Math.max(...names.map((w) => w.top + w.height)) + h)) - top,
  };
  return box.width < 4 * h || box.height < h ? null : { names, box, h };
}

/**
 * Word by word, the better of two readings of the name column: `names` (the page's `rus` words in the column,
 * also in `words`) and `cross` (the column's `rus+eng` words, page px). Each cross word is set against the rus
 * words under it (same line, their centres inside its box):
 * - the same word in both (look-alike letters and case folded): kept as the rus read it, at the higher of the two
 *   confidences: two independent reads agreeing is evidence a single word confidence does not have;
 * - else a reading that is a Russian word form ({@link RussianWords}) over one that is not (`Щётки` over `ЩЁётки`,
 *   `Масло` over `Macno`), at its own confidence;
 * - else the Latin reading where {@link prefersLatin} says so (`Schneider` over `Эсппеаег`);
 * - else, neither being a word, the cross reading's spelling where only it spells into one ({@link spelledFromCross});
 * - a rus reading kept against a different cross reading that neither the dictionary nor the glyph rule settled
 *   is capped at {@link UNSETTLED_CONFIDENCE}, so the item name is not reported as sure;
 * - a word already settled as Latin (Latin letters only, one without a Cyrillic twin among them; only a second
 *   cross reading meets such words) is neither replaced nor spelled by a cross reading without Latin letters;
 * - a cross line the page read lost whole is added ({@link lostLines}).
 * Returns `words` with the replaced rus words swapped for their cross words. Pure; `dict` null skips the dictionary.
 */
export function mergeNameReadings(words: Word[], names: Word[], cross: Word[], h: number, dict: RussianWords | null): Word[] {
  const replaced = new Set<Word>();
  const changed = new Map<Word, Word>();
  const added: Word[] = [];
  const used = new Set<Word>();
  // One rus word that is several cross words with the spaces lost ("ИБПАРС" = "ИБП" + "APC"): the cross words.
  for (const m of names) {
    const parts = cross.filter((c) => centerX(c) > m.left && centerX(c) < right(m) && Math.abs(centerY(m) - centerY(c)) < h / 2);
    if (parts.length < 2 || !sameWord(m.text, parts.map((c) => c.text).join(''))) continue;
    replaced.add(m);
    for (const c of parts) used.add(c);
    added.push(...parts);
  }
  for (const w of cross) {
    if (used.has(w)) continue;
    const covered = names.filter(
      (m) => !replaced.has(m) && centerX(m) > w.left && centerX(m) < right(w) && Math.abs(centerY(m) - centerY(w)) < h / 2,
    );
    if (covered.length === 0) continue;
    const mainText = covered.map((m) => m.text).join('');
    // Tesseract's box of a word is now and then stretched over the words after it ("клейкая" over "19 мм х 33 м"):
    // a cross word far shorter than the rus words under it is such a box, and would put one word for several.
    if (covered.length > 1 && w.text.length < OVERSTRETCHED * mainText.length) continue;
    if (sameWord(mainText, w.text)) {
      // Both reads agree and the word is a Russian word form: a misread that gives another known word in both
      // reads is rare, so Tesseract's low score for a short or rare word (`Сода` 56/75) is not kept.
      const known = isRussianWord(toCyrillic(mainText), dict);
      for (const m of covered) changed.set(m, { ...m, conf: Math.max(m.conf, w.conf, known ? AGREED_WORD_CONFIDENCE : 0) });
      continue;
    }
    const mainWord = isRussianWord(toCyrillic(mainText), dict);
    const crossWord = isRussianWord(toCyrillic(w.text), dict);
    if (mainWord && !crossWord) continue;
    // A word an earlier reading settled as Latin (`Knauf`, from the rus+eng reading) is no misread Russian word that
    // a later Cyrillic reading (`Клуб` or `Кпауб`, the extended photo model's) may replace or spell.
    if (STRONG_LATIN.test(mainText) && !/[А-Яа-яЁё]/.test(mainText) && !LATIN.test(w.text)) continue;
    if ((crossWord && !mainWord) || prefersLatin(w, covered, dict ? mainWord : undefined)) {
      for (const m of covered) replaced.add(m);
      // A word the dictionary knows is Russian: its look-alike Latin letters are the Cyrillic ones.
      added.push(crossWord ? { ...w, text: toCyrillic(w.text) } : w);
      continue;
    }
    // Neither reading is a word: the cross one may be a word one edit away where the rus one is not near any
    // (`толщимо` / `толщима` → `толщина`); the rus reading's own spelling comes first (spellNames, later).
    const spelled = !mainWord && covered.length === 1 ? spelledFromCross(covered[0], w, dict) : null;
    if (spelled) {
      replaced.add(covered[0]);
      added.push(spelled);
      continue;
    }
    if (!mainWord && letters(w.text).length > 0) for (const m of covered) changed.set(m, { ...m, conf: Math.min(m.conf, UNSETTLED_CONFIDENCE) });
  }
  added.push(...lostLines(words, cross));
  if (added.length === 0 && changed.size === 0) return words;
  return [...words.filter((w) => !replaced.has(w)).map((w) => changed.get(w) ?? w), ...added];
}

/** A line of the cross reading that the page read lost whole is taken only at this mean Tesseract score or more. */
export const LOST_LINE_MIN_SCORE = 60;

/**
 * Lines of the name column's cross reading (`cross`, page px) of which the page read (`words`) has nothing: no page
 * word on the same text line overlaps any of the line's words. Tesseract's page layout now and then drops a whole text line of a cell
 * (an all-Latin line such as `Schneider Electric AtlasDesign` between two Russian ones), which the column crop still
 * reads. A line is taken when its words score {@link LOST_LINE_MIN_SCORE} on average and hold three letters or
 * digits in all, so a speck or a rule's remnant read as a glyph adds nothing.
 */
function lostLines(words: Word[], cross: Word[]): Word[] {
  // On the same text line (centres closer than half a word's height; boxes of neighbouring lines touch) and overlapping.
  const meets = (a: Word, b: Word) => a.left < right(b) && b.left < right(a) && Math.abs(centerY(a) - centerY(b)) < Math.min(a.height, b.height) / 2;
  const lines = new Map<string, Word[]>();
  for (const c of cross) lines.set(c.line, [...(lines.get(c.line) ?? []), c]);
  const lost: Word[] = [];
  for (const line of lines.values()) {
    if (line.some((c) => words.some((w) => meets(w, c)))) continue;
    const mean = line.reduce((sum, c) => sum + c.conf, 0) / line.length;
    if (
      mean < LOST_LINE_MIN_SCORE ||
      line
        .map((c) => c.text)
        .join('')
        .replace(/[^\p{L}\p{N}]/gu, '').length < 3
    )
      continue;
    lost.push(...line);
  }
  return lost;
}

/**
 * The cross reading `cross` of a name word spelled into a Russian word form ({@link spellNames} as for an unsure word)
 * when the rus reading `main` (no word either) spells into none: both reads of the same glyphs missed the word, and
 * the dictionary finds it near only one of them (`толщимо` / `толщима` → `толщина`). At the lower of the two
 * scores and capped at {@link UNSETTLED_CONFIDENCE}, so the name is not reported as sure for it; null otherwise
 * (or without a dictionary).
 */
function spelledFromCross(main: Word, cross: Word, dict: RussianWords | null): Word | null {
  if (!dict) return null;
  const unsure = (x: Word): Word => ({ ...x, conf: 0 });
  const ownSpelling = spellNames([unsure(main)], () => true, dict)[0].text;
  if (ownSpelling !== main.text) return null;
  const crossText = toCyrillic(cross.text);
  const fromCross = spellNames([unsure({ ...cross, text: crossText })], () => true, dict)[0].text;
  if (fromCross === crossText || !isRussianWord(fromCross, dict)) return null;
  return { ...cross, text: fromCross, conf: Math.min(main.conf, cross.conf, UNSETTLED_CONFIDENCE) };
}

/**
 * Confidence (Tesseract's 0–100) given to a rus word that the rus+eng read agrees with and that the dictionary knows
 * as a Russian word form: two reads and a dictionary together are evidence that neither score alone carries.
 */
export const AGREED_WORD_CONFIDENCE = 95;

/**
 * A cross word over two or more rus words whose text has fewer than this share of their characters is a stretched
 * box, not a reading of them ({@link mergeNameReadings}).
 */
const OVERSTRETCHED = 0.7;

/** Confidence (Tesseract's 0–100) of a rus word that the rus+eng read disputes with nothing to settle it. */
export const UNSETTLED_CONFIDENCE = 85;

const letters = (text: string) => text.replace(/[^\p{L}]/gu, '');
/** Whether a word is a unit symbol (`Вт`, `мм.`) or a unit ratio (`г/м²`, `Вт/м`), trailing punctuation aside. */
const isUnitText = (text: string) => {
  const core = text.replace(/[.,;:)]+$/, '');
  return isNameUnit(core) || isUnitRatio(core);
};
const fold = (text: string) =>
  toCyrillic(text)
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}]/gu, '');
/** Whether two readings are the same word: equal once look-alike letters, case, ё and punctuation are folded. */
const sameWord = (a: string, b: string) => fold(a) === fold(b);

/**
 * Whether a reading is a Russian word form: its letters (a hyphenated word: every part) are Cyrillic and known to
 * the dictionary, with at most quotes, brackets and punctuation around. Digits, Latin letters or glyphs inside, a
 * glyph such as `!` after it, or capitals only make it no word; a part of one or two letters proves nothing (`в`, `мм`).
 */
function isRussianWord(text: string, dict: RussianWords | null): boolean {
  if (!dict) return false;
  const core = text.replace(/^[«"'“„‘(]+|[»"'”’“),.;:]+$/g, '');
  // Capitals only are an abbreviation or a brand ("ТЕМ!" for "TRW"), not a word of the dictionary.
  if (core === core.toUpperCase()) return false;
  const parts = core.split('-');
  if (parts.length === 0 || parts.some((p) => !/^[А-Яа-яЁё]{3,}$/.test(p))) return false;
  return parts.every((p) => dict.has(p) || isCompound(p.toLowerCase(), dict));
}
