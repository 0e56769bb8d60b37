import dictionary from 'dictionary-ru';
import { loadModule } from 'hunspell-asm';
import { loadTesseractWords } from './tesseract-words.js';

/** Whether a word is a Russian word form: the Hunspell dictionary ru_RU (npm `dictionary-ru`) with its affix rules. */
export interface RussianWords {
  /** True for a known word form in any case (`Масло`, `масло`, `МАСЛО`); ё and е are both accepted. */
  has(word: string): boolean;
  /**
   * True for a noun's dictionary form (nominative singular, or nominative plural of a plural-only noun: `рейка`,
   * `стул`, `ножницы`), lower case, ё or е: a stem of the dictionary that carries only noun declension flags. Inflected
   * forms (`рейха` of `рейх`, `ступ` of `ступа`) and the base forms of adjectives and verbs are not.
   */
  isNounLemma(word: string): boolean;
  /**
   * True for a word form in Tesseract's own `rus` word list (tesseract-words.ts: forms frequent in web text), lower
   * case, ё or е; always false when that list could not be loaded. Tells a common form from a rare one.
   */
  isCommon(word: string): boolean;
}

const ALPHABET = 'абвгдежзийклмнопрстуфхцчшщъыьэюяё';

/** More known forms one edit away than this: the word is too common a shape for any of them to be told apart. */
const MAX_ONE_EDIT_FORMS = 6;

/**
 * The known word form one edit (a letter changed, dropped or added) away from `word`, a lower-case Cyrillic word
 * the dictionary does not know (`оцинковакный` → `оцинкованный`, `нержавеюшая` → `нержавеющая`): the only one, or,
 * among several, the only one reached by changing a letter into one a blurred photo reads it for ({@link LOOKALIKE}:
 * `залисей` → `записей`, not `зализей`); among several look-alike ones, the only noun in its dictionary form
 * (`жран` → `кран`, not the verb form `жрал`); else the only common form ({@link RussianWords.isCommon}:
 * `крепленуе` → `крепление`, not `крепленые`); null otherwise (`красныи`: `красный`, `красные`, `красных` are
 * all one letter away and none by a look-alike). About 800 lookups for a 12-letter word, 10–40 ms.
 */
export function nearestWord(word: string, dict: RussianWords, lookalikeOnly = false): string | null {
  const forms = oneEditForms(word, dict);
  if (!forms) return null;
  const { found, lookalike } = forms;
  if (found.size === 1 && !lookalikeOnly) return [...found][0];
  if (lookalike.size === 1) return [...lookalike][0];
  // Two look-alike forms: an item name is mostly nouns in their dictionary form, so the only one of those decides;
  // else the only common word form among them, or (no look-alike form) among all.
  const nouns = [...lookalike].filter((w) => dict.isNounLemma(w));
  if (nouns.length === 1) return nouns[0];
  const pool = lookalike.size > 0 || lookalikeOnly ? lookalike : found;
  const common = [...pool].filter((w) => dict.isCommon(w));
  return common.length === 1 ? common[0] : null;
}

/**
 * The one known word form one edit away from `word` (a letter changed, dropped or added, of any kind), when there is
 * exactly one and not shorter (`кронштеин` → `кронштейн`, `перфорацонный` → `перфорационный`); null for none, several or a
 * form with a letter less. Stricter than
 * {@link nearestWord}: no tie is settled, so it suits words Tesseract read with a high score, where only a form
 * without a rival is evidence enough to change them.
 */
export function onlyWordOneEditAway(word: string, dict: RussianWords): string | null {
  const forms = oneEditForms(word, dict);
  const only = forms?.found.size === 1 ? [...forms.found][0] : null;
  // Not a letter dropped: a confident reading rarely has a letter too many, while a prefix is a letter a known word
  // lacks (`сдекорированный` is no misread of `декорированный`).
  return only && only.length >= word.length ? only : null;
}

/**
 * The known forms one edit from `word` (`found`) and those of them reached by a look-alike letter (`lookalike`);
 * null when there are more than {@link MAX_ONE_EDIT_FORMS} (too common a shape for any of them to be told apart).
 */
function oneEditForms(word: string, dict: RussianWords): { found: Set<string>; lookalike: Set<string> } | null {
  const found = new Set<string>();
  const lookalike = new Set<string>();
  const tryWord = (w: string, blurred = false) => {
    if (found.size > MAX_ONE_EDIT_FORMS || !dict.has(w)) return;
    found.add(w);
    if (blurred) lookalike.add(w);
  };
  for (let i = 0; i <= word.length; i++) {
    for (const c of ALPHABET) {
      if (i < word.length && c !== word[i]) tryWord(word.slice(0, i) + c + word.slice(i + 1), LOOKALIKE[word[i]]?.includes(c));
      tryWord(word.slice(0, i) + c + word.slice(i));
    }
    // Not the first letter dropped: a letter too many at a word's start is, in Russian, more often a prefix of a form
    // the dictionary lacks (`сдекорированный`, `сбалансированный`) than a speck read as a letter.
    if (i > 0 && i < word.length) tryWord(word.slice(0, i) + word.slice(i + 1));
    if (found.size > MAX_ONE_EDIT_FORMS) return null;
  }
  return { found, lookalike };
}

/**
 * Letters a blurred photo's `rus` reading puts for one another (the stems and bowls that blur away: `н`/`м`/`п`/`л`,
 * `к`/`ж`/`х`/`ч`, `т`/`г`, `о`/`р`/`е`/`с`, `а`/`о`; `ю` for an `о` whose left neighbour's stem joined it), as seen in the development photos' misread words.
 */
const LOOKALIKE: Record<string, string> = {
  н: 'мипл',
  м: 'нл',
  и: 'н',
  п: 'лн',
  л: 'пмн',
  к: 'жхч',
  ж: 'кхз',
  х: 'кж',
  ч: 'к',
  з: 'ж',
  т: 'г',
  г: 'т',
  о: 'ерса',
  а: 'о',
  ю: 'о',
  р: 'оф',
  ф: 'р',
  е: 'сов',
  с: 'ео',
  в: 'е',
  ш: 'щ',
  щ: 'шц',
  ц: 'щ',
  ы: 'ь',
  ь: 'ы',
};

/** Whether a blurred photo's `rus` reading puts the letter `read` for `printed` ({@link LOOKALIKE}), either case. */
export function readsLookalike(read: string, printed: string): boolean {
  return LOOKALIKE[read.toLowerCase()]?.includes(printed.toLowerCase()) ?? false;
}

/** Below this length a word is not corrected by two letters ({@link nearestLookalikeWord}): too many words are that near. */
export const TWO_LETTER_MIN_LENGTH = 8;

/**
 * The only known word form two look-alike letters away from `word` ({@link LOOKALIKE}: `оцинжованмый` →
 * `оцинкованный`, `алюмимиевьй` → `алюминиевый`), for a lower-case Cyrillic word of at least
 * {@link TWO_LETTER_MIN_LENGTH} letters that the dictionary does not know and that has no form one edit away
 * ({@link nearestWord}); null when none or more than one. Only substitutions of letters that blur into each other
 * are tried (under 1 000 lookups for a 12-letter word), so the two changes are the kind a photo makes.
 */
export function nearestLookalikeWord(word: string, dict: RussianWords): string | null {
  if (word.length < TWO_LETTER_MIN_LENGTH) return null;
  const found = new Set<string>();
  const chars = [...word];
  for (let i = 0; i < chars.length; i++) {
    for (const a of LOOKALIKE[chars[i]] ?? '') {
      for (let j = i + 1; j < chars.length; j++) {
        for (const b of LOOKALIKE[chars[j]] ?? '') {
          const w = [...chars.slice(0, i), a, ...chars.slice(i + 1, j), b, ...chars.slice(j + 1)].join('');
          if (dict.has(w)) found.add(w);
          if (found.size > 1) return null;
        }
      }
    }
  }
  return found.size === 1 ? [...found][0] : null;
}

/** Number and quantity stems that open Russian compounds without a linking vowel (`трёхкомпонентный`, `полуавтомат`). */
const COMPOUND_PREFIX = /^(?:одно|двух|трёх|трех|четырёх|четырех|пяти|шести|восьми|десяти|много|мало|полу|само|обще)/;
/** The shortest second part a compound is accepted with: shorter known words are too easily a misread's tail. */
const MIN_COMPOUND_TAIL = 5;

/**
 * Whether `prefix` (lower case) is the first part of a Russian compound up to its linking vowel: a stem of three
 * letters or more that is a known word itself or the stem of one (`газо` from `газ`, `стекло`, `керамо` from
 * `керамика`, `гидро` from `гидра`), then `о` or `е`; or a number or quantity stem ({@link COMPOUND_PREFIX}).
 */
function isCompoundPrefix(prefix: string, dict: RussianWords): boolean {
  if (COMPOUND_PREFIX.exec(prefix)?.[0] === prefix) return true;
  if (prefix.length < 4 || !/[ое]$/.test(prefix)) return false;
  const stem = prefix.slice(0, -1);
  // The linking vowel follows the stem: `е` after a hissing consonant, `ц`, `й` or a soft stem (`сталь` → `стале-`),
  // `о` after a hard one; so a misread linking vowel has one correction, not two. (A known word ending in `е` is
  // mostly a case form, `газе`, not a compound's first part; one ending in `о` may be, `стекло`.)
  if (prefix.endsWith('е')) return /[жшчщцй]$/.test(stem) ? dict.has(stem) : dict.has(`${stem}ь`);
  return ['', 'а', 'ия', 'ика'].some((end) => dict.has(stem + end)) || dict.has(prefix);
}

/**
 * Whether a lower-case word the dictionary does not know is a compound of known parts, as catalogue names are full
 * of (`газобетонный`, `стеклотканевая`, `керамогранит`, `трёхкомпонентный`): a {@link isCompoundPrefix} first part
 * and a known word of {@link MIN_COMPOUND_TAIL} letters or more after it. Hunspell's ru_RU has no compounding rules,
 * so such a word would otherwise be "spelled" into something else or stay unjudged.
 */
export function isCompound(word: string, dict: RussianWords): boolean {
  for (let k = 3; k <= word.length - MIN_COMPOUND_TAIL; k++) {
    if (isCompoundPrefix(word.slice(0, k), dict) && dict.has(word.slice(k))) return true;
  }
  return false;
}

/**
 * The only compound one edit away from `word` (lower case, unknown to the dictionary, no known form one edit away):
 * the word ends in a known word of {@link MIN_COMPOUND_TAIL} letters or more, and one letter changed, dropped or
 * added in what comes before it makes that a {@link isCompoundPrefix} (`газюбетонный` → `газобетонный`,
 * `стежлотканевая` → `стеклотканевая`); among several, the only one reached by a look-alike letter, as
 * {@link nearestWord} decides; or a first part as read and one look-alike letter ({@link LOOKALIKE}) changed in the
 * tail (`гипсокартомный` → `гипсокартонный`), among several the only one whose tail is a noun in its dictionary
 * form; null otherwise. A few hundred lookups a word.
 */
export function nearestCompound(word: string, dict: RussianWords): string | null {
  const found = new Set<string>();
  const lookalike = new Set<string>();
  for (let k = 3; k <= word.length - MIN_COMPOUND_TAIL; k++) {
    const tail = word.slice(k);
    if (!dict.has(tail)) continue;
    const head = word.slice(0, k);
    const tryHead = (h: string, blurred = false) => {
      if (h.length < 3 || !isCompoundPrefix(h, dict)) return;
      found.add(h + tail);
      if (blurred) lookalike.add(h + tail);
    };
    for (let i = 0; i <= head.length; i++) {
      for (const c of ALPHABET) {
        if (i < head.length && c !== head[i]) tryHead(head.slice(0, i) + c + head.slice(i + 1), LOOKALIKE[head[i]]?.includes(c));
        tryHead(head.slice(0, i) + c + head.slice(i));
      }
      if (i < head.length) tryHead(head.slice(0, i) + head.slice(i + 1));
    }
  }
  // The other way round: a first part as read, and a look-alike letter misread in the known tail (`гипсокартомный`).
  const nounTail = new Set<string>();
  for (let k = 3; k <= word.length - MIN_COMPOUND_TAIL; k++) {
    const head = word.slice(0, k);
    const tail = [...word.slice(k)];
    if (dict.has(tail.join('')) || !isCompoundPrefix(head, dict)) continue;
    for (let i = 0; i < tail.length; i++) {
      for (const c of LOOKALIKE[tail[i]] ?? '') {
        const t = [...tail.slice(0, i), c, ...tail.slice(i + 1)].join('');
        if (!dict.has(t)) continue;
        found.add(head + t);
        lookalike.add(head + t);
        if (dict.isNounLemma(t)) nounTail.add(head + t);
      }
    }
  }
  if (found.size === 1) return [...found][0];
  if (lookalike.size === 1) return [...lookalike][0];
  // Two look-alike tails (`гранит`, `громит`): the only noun in its dictionary form, as nearestWord decides.
  const nouns = [...lookalike].filter((w) => nounTail.has(w));
  return nouns.length === 1 ? nouns[0] : null;
}

/**
 * ru_RU's affix flags of noun declension classes (index.aff): a stem whose flags are all of these is a noun in its
 * dictionary form. Adjectives carry `A…`, verbs `L`/`B`/`M`…, and a stem with no flags is an indeclinable word.
 */
const NOUN_FLAGS = /^[FGHIJKNO]+$/;

/** The lower-case noun stems (ё as е) of a Hunspell .dic text ({@link NOUN_FLAGS}). */
export function nounLemmas(dic: string): Set<string> {
  const nouns = new Set<string>();
  for (const line of dic.split('\n')) {
    const slash = line.indexOf('/');
    if (slash > 0 && NOUN_FLAGS.test(line.slice(slash + 1).trim())) nouns.add(line.slice(0, slash).toLowerCase().replace(/ё/g, 'е'));
  }
  return nouns;
}

/**
 * The only noun in its dictionary form one look-alike letter ({@link LOOKALIKE}) from `word`, a lower-case Russian
 * word form that is itself no noun's dictionary form (`рейха` → `рейка`, `ступ` → `стул`); null when none or several.
 * An item name opens with its head noun in the nominative (`Рейка …`, `Стул …`), and a blurred photo that turns the
 * last letter of such a noun into a look-alike often lands on another word form (a plural's genitive, an adjective's
 * short form) that the dictionary knows: spelling alone leaves it. Substitutions only, so the word keeps its length.
 */
export function nearestNounLemma(word: string, dict: RussianWords): string | null {
  if (dict.isNounLemma(word)) return null;
  const found = new Set<string>();
  const chars = [...word];
  for (let i = 0; i < chars.length; i++) {
    for (const c of LOOKALIKE[chars[i]] ?? '') {
      const w = [...chars.slice(0, i), c, ...chars.slice(i + 1)].join('');
      if (dict.isNounLemma(w)) found.add(w);
    }
  }
  return found.size === 1 ? [...found][0] : null;
}

let loading: Promise<RussianWords | null> | null = null;

/**
 * The Russian word-form dictionary, loaded once per process (or worker thread) on first use: Hunspell compiled to
 * WebAssembly (`hunspell-asm`) with the ru_RU dictionary (about 150 000 stems, their inflections come from the affix
 * rules), its noun stems, and Tesseract's `rus` word list ({@link loadTesseractWords}; without it no form is
 * common), 1.2–1.7 s and ~100 MB the first time (measured 2026-11-29), then microseconds per word. Resolves null when the dictionary cannot be
 * loaded, so callers fall back to their rules without it rather than fail the document.
 */
export function loadRussianWords(): Promise<RussianWords | null> {
  loading ??= (async () => {
    try {
      const factory = await loadModule();
      const aff = factory.mountBuffer(dictionary.aff, 'ru_RU.aff');
      const dic = factory.mountBuffer(dictionary.dic, 'ru_RU.dic');
      const speller = factory.create(aff, dic);
      const cache = new Map<string, boolean>();
      const nouns = nounLemmas(new TextDecoder().decode(dictionary.dic));
      const common = await loadTesseractWords();
      return {
        isNounLemma: (word: string) => nouns.has(word.replace(/ё/g, 'е')),
        isCommon: (word: string) => common?.has(word.replace(/ё/g, 'е')) ?? false,
        has(word: string): boolean {
          let known = cache.get(word);
          if (known === undefined) {
            known = speller.spell(word) || speller.spell(word.toLowerCase()) || speller.spell(word.replace(/ё/g, 'е').toLowerCase());
            if (cache.size > 50_000) cache.clear();
            cache.set(word, known);
          }
          return known;
        },
      };
    } catch {
      return null;
    }
  })();
  return loading;
}

/** One glyph of a misread word and the letters Tesseract weighed for it, with their scores (0–100). */
export interface LetterChoices {
  /** The letter as read. */
  text: string;
  /** Other readings of the same glyph (the read letter may be among them). */
  choices: readonly { text: string; conf: number }[];
}

/** A runner-up reading of a glyph scoring below this (0–100) is no evidence ({@link wordFromChoices}). */
export const MIN_CHOICE_SCORE = 10;
/** At most this many glyphs of a word are read as their runner-up letter ({@link wordFromChoices}). */
const MAX_CHOICE_CHANGES = 2;

/**
 * The only known word form (lower case) reached from a misread word by reading one or two of its glyphs as a letter
 * Tesseract's LSTM itself weighed for that glyph (`letters`: one entry per glyph, e.g. `шойбо` whose first `о` also
 * scored `а` 40 and whose last scored `а` 35 → `шайба`); among several, the only noun in its dictionary form
 * (`гайка`, not `гайки`); null when none, or several and no such noun, are reached. Only Cyrillic runner-ups
 * scoring {@link MIN_CHOICE_SCORE} or more count, so every change is one the recogniser saw in the ink, not one a
 * table of look-alikes assumes. Up to a few thousand dictionary lookups for a long word with many runner-ups
 * (microseconds each).
 */
export function wordFromChoices(letters: readonly LetterChoices[], dict: RussianWords): string | null {
  const read = letters.map((l) => l.text.toLowerCase());
  const options = letters.map((l, i) => [
    ...new Set(
      l.choices
        .filter((c) => c.conf >= MIN_CHOICE_SCORE && /^[А-Яа-яЁё]$/.test(c.text))
        .map((c) => c.text.toLowerCase())
        .filter((c) => c !== read[i]),
    ),
  ]);
  const found = new Set<string>();
  const search = (from: number, chars: string[], changes: number) => {
    for (let i = from; i < chars.length && found.size <= MAX_ONE_EDIT_FORMS; i++) {
      for (const c of options[i]) {
        const next = [...chars.slice(0, i), c, ...chars.slice(i + 1)];
        const word = next.join('');
        if (dict.has(word)) found.add(word);
        if (changes + 1 < MAX_CHOICE_CHANGES) search(i + 1, next, changes + 1);
      }
    }
  };
  search(0, read, 0);
  if (found.size === 1) return [...found][0];
  // Several (`гайка`, `гайки`): an item name is mostly nouns in their dictionary form, as nearestWord decides.
  const nouns = found.size <= MAX_ONE_EDIT_FORMS ? [...found].filter((w) => dict.isNounLemma(w)) : [];
  return nouns.length === 1 ? nouns[0] : null;
}
