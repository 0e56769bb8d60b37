import { describe, expect, it } from 'vitest';
import type { Word } from '../../../src/engine/extract/words.js';
import {
  isCompound,
  loadRussianWords,
  nearestCompound,
  nearestLookalikeWord,
  nearestNounLemma,
  nearestWord,
  onlyWordOneEditAway,
  readsLookalike,
  nounLemmas,
  wordFromChoices,
  MIN_CHOICE_SCORE,
  type LetterChoices,
} from '../../../src/engine/extract/russian-words.js';
import type { WordWithChoices } from '../../../src/engine/ocr/hocr.js';
import {
  AGREED_WORD_CONFIDENCE,
  agreedLatinWords,
  latinCandidate,
  locateNameColumn,
  explainedByMissingLatin,
  mergeLatinReading,
  mendedByMissingLatin,
  mergeNameReadings,
  nameColumn,
  prefersLatin,
  SPELL_BELOW,
  spellNames,
  UNSETTLED_CONFIDENCE,
} from '../../../src/engine/ocr/name-column.js';
import { levelRules, levelWords } from '../../../src/engine/ocr/skew.js';
import { loadFixture } from '../fixtures.js';

const w = (text: string, conf: number): Word => ({ text, conf, left: 0, top: 0, width: 10 * text.length, height: 20, line: '1' });

describe('prefersLatin: a rus+eng reading of a name word against the rus one', () => {
  it('takes a brand or model code that the rus model garbled', () => {
    expect(prefersLatin(w('Bosch', 93), [w('Возсй', 40)])).toBe(true);
    expect(prefersLatin(w('R-32', 90), [w('В-32', 91)])).toBe(true);
    expect(prefersLatin(w('Kingston', 88), [w('Ктдзюоп', 35)])).toBe(true);
    // A glyph the rus model uses for a Latin letter it lacks decides even without a strong Latin letter.
    expect(prefersLatin(w('CS', 70), [w('С$', 80)])).toBe(true);
    // Look-alike capitals only: the Latin-only letter decides even against a surer rus reading.
    expect(prefersLatin(w('NGK', 70), [w('МСК', 93)])).toBe(true);
    expect(prefersLatin(w('R-410A', 75), [w('В-410А', 95)])).toBe(true);
  });

  it('keeps a confident Russian word, and words whose letters print alike in both alphabets', () => {
    expect(prefersLatin(w('Macno', 80), [w('Масло', 96)])).toBe(false);
    expect(prefersLatin(w('Boga', 85), [w('Вода', 95)])).toBe(false);
    expect(prefersLatin(w('6500K', 95), [w('6500К', 93)])).toBe(false);
    expect(prefersLatin(w('ABC', 95), [w('АВС', 90)])).toBe(false);
    expect(prefersLatin(w('BA', 95), [w('ВА', 90)])).toBe(false);
    expect(prefersLatin(w('CДO-5', 95), [w('СДО-5', 90)])).toBe(false);
  });

  it('keeps the rus reading when the Latin one is much less sure, or has no Latin at all', () => {
    expect(prefersLatin(w('Tpyba', 40), [w('Труба', 70)])).toBe(false);
    expect(prefersLatin(w('125х1,2', 95), [w('125х1.2', 60)])).toBe(false);
    expect(prefersLatin(w('Schneider', 96), [])).toBe(false);
  });

  it('keeps digits against their Latin look-alikes, lower-case Cyrillic against lower-case Latin, units, and guesses', () => {
    expect(prefersLatin(w('SO', 70), [w('40', 62)])).toBe(false);
    expect(prefersLatin(w('3S0', 80), [w('350', 70)])).toBe(false);
    expect(prefersLatin(w('Se', 87), [w('6е', 88)])).toBe(false);
    expect(prefersLatin(w('Ga', 95), [w('6а', 80)])).toBe(false); // a number with a suffix, at any score
    expect(prefersLatin(w('SSD', 92), [w('$50', 93)])).toBe(true); // not a number: a glyph the rus model lacks
    expect(prefersLatin(w('SSD', 93), [w('550', 90)])).toBe(true); // a sure eng reading
    expect(prefersLatin(w('GDB1550', 80), [w('6081550', 85)])).toBe(true); // a code's letters read as digits
    expect(prefersLatin(w('RJ-11', 60), [w('К1-11', 62)])).toBe(true); // junk digits in a garbled code decide nothing
    expect(prefersLatin(w('ww', 87), [w('мм', 66)])).toBe(false);
    expect(prefersLatin(w('nostavki', 60), [w('поставжи', 14)])).toBe(false);
    expect(prefersLatin(w('Br', 58), [w('Вт', 78)])).toBe(false);
    // … nor a unit per unit (`16 Вт/м`, `200 г/м²`).
    expect(prefersLatin(w('Brim', 70), [w('Вт/м', 60)])).toBe(false);
    expect(prefersLatin(w('rim?', 70), [w('г/м²,', 60)])).toBe(false);
    expect(prefersLatin(w('Rfeqws', 5), [w('жёлтыи', 0)])).toBe(false);
    expect(prefersLatin(w('Makita', 45), [w('Маюта', 0)])).toBe(true);
  });
});

describe('mergeNameReadings: the rus read and the rus+eng read of the name column, word by word', () => {
  const at = (text: string, conf: number, left: number): Word => ({ text, conf, left, top: 100, width: 16 * text.length, height: 20, line: '1' });
  // A stand-in for the ru_RU dictionary: a few word forms.
  const dict = {
    has: (word: string) => ['щётки', 'щетки', 'масло', 'вода', 'моторное', 'клейкая', 'толщина', 'клуб'].includes(word.toLowerCase()),
    isNounLemma: () => false,
    isCommon: () => false,
  };
  const merge = (rus: Word[], cross: Word[], d: typeof dict | null = dict) =>
    mergeNameReadings(rus, rus, cross, 20, d)
      .sort((a, b) => a.left - b.left)
      .map((w) => `${w.text}:${w.conf}`);

  it('keeps a word both reads agree on at the higher confidence (look-alike letters and case folded)', () => {
    expect(merge([at('Хлопья', 28, 0)], [at('Хлопья', 93, 0)])).toEqual(['Хлопья:93']);
    expect(merge([at('АВС', 40, 0)], [at('ABC', 90, 0)])).toEqual(['АВС:90']);
  });

  it('raises a word both reads agree on to the agreed-word confidence only when it is a Russian word form', () => {
    // Short and rare words score low in both reads ("Вода" at 58 and 71): agreement plus the dictionary decide.
    expect(merge([at('Вода', 58, 0)], [at('Вода', 71, 0)])).toEqual([`Вода:${AGREED_WORD_CONFIDENCE}`]);
    // Not a word form the dictionary knows, capitals only, or no dictionary: the higher of the two scores only.
    expect(merge([at('Крамбо', 58, 0)], [at('Крамбо', 71, 0)])).toEqual(['Крамбо:71']);
    expect(merge([at('ВОДА', 58, 0)], [at('ВОДА', 71, 0)])).toEqual(['ВОДА:71']);
    expect(merge([at('Вода', 58, 0)], [at('Вода', 71, 0)], null)).toEqual(['Вода:71']);
  });

  it('keeps a word an earlier reading settled as Latin against a later reading that is a Russian word', () => {
    // The second cross reading (the extended photo model's) meets words the rus+eng reading made Latin.
    expect(merge([at('Knauf', 60, 0)], [at('Клуб', 88, 0)])).toEqual(['Knauf:60']);
    // … nor spell: `Клаб` is a word one edit from клуб, Knauf none.
    expect(merge([at('Knauf', 60, 0)], [at('Клаб', 88, 0)])).toEqual(['Knauf:60']);
    // A rus word with no Latin letter is still replaced by the reading the dictionary knows.
    expect(merge([at('Кпуб', 60, 0)], [at('Клуб', 88, 0)])).toEqual(['Клуб:88']);
  });

  it('when neither read is a word, takes the cross read spelled into one where the rus read spells into none', () => {
    // толщимо is two edits from толщина, толщима one: the cross read's spelling, at the lower score.
    expect(merge([at('толщимо', 22, 0)], [at('толщима', 79, 0)])).toEqual(['толщина:22']);
    // The rus read spells into the word itself (later, spellNames): it is kept here, not replaced.
    expect(merge([at('толщима', 22, 0)], [at('толщимо', 79, 0)])).toEqual(['толщима:22']);
    // Nothing near either read: the rus read stays, not reported as sure.
    expect(merge([at('тапщимо', 90, 0)], [at('тапщима', 79, 0)])).toEqual([`тапщимо:${UNSETTLED_CONFIDENCE}`]);
  });

  it('adds a line of the cross read that the page read lost whole, when it is read surely enough', () => {
    const on = (text: string, conf: number, left: number, top: number, line: string): Word => ({
      text,
      conf,
      left,
      top,
      width: 16 * text.length,
      height: 20,
      line,
    });
    const rus = [on('Розетка', 96, 0, 100, 'r1'), on('белая', 95, 0, 160, 'r3')];
    const cross = [
      on('Розетка', 95, 0, 100, 'c1'),
      on('Schneider', 88, 0, 130, 'c2'),
      on('Electric', 84, 160, 130, 'c2'),
      on('белая', 92, 0, 160, 'c3'),
    ];
    const texts = (ws: Word[]) => ws.sort((a, b) => a.top - b.top || a.left - b.left).map((x) => x.text);
    expect(texts(mergeNameReadings(rus, rus, cross, 20, dict))).toEqual(['Розетка', 'Schneider', 'Electric', 'белая']);
    // Read unsurely (a speck, a rule's remnant), or with a page word on it: nothing is added.
    const unsure = cross.map((c) => (c.line === 'c2' ? { ...c, conf: 30 } : c));
    expect(texts(mergeNameReadings(rus, rus, unsure, 20, dict))).toEqual(['Розетка', 'белая']);
    const kept = [...rus, on('Sсhnеider', 40, 0, 132, 'r2')];
    expect(texts(mergeNameReadings(kept, kept, cross, 20, dict))).toEqual(['Розетка', 'Sсhnеider', 'белая']);
  });

  it('takes the reading that is a Russian word form over one that is not', () => {
    expect(merge([at('ЩЁётки', 57, 0)], [at('Щётки', 93, 0)])).toEqual(['Щётки:93']);
    expect(merge([at('Масло', 80, 0), at('моторное', 96, 100)], [at('Macno', 90, 0), at('моторное', 96, 100)])).toEqual(['Масло:80', 'моторное:96']);
    // Without the dictionary the disputed word is not reported as sure.
    expect(merge([at('ЩЁётки', 95, 0)], [at('Щётки', 93, 0)], null)).toEqual([`ЩЁётки:${UNSETTLED_CONFIDENCE}`]);
  });

  it('caps a rus word the other read disputes when nothing settles it, and still takes a garbled brand in Latin', () => {
    expect(merge([at('МАММ', 95, 0)], [at('MAHH', 92, 0)])).toEqual([`МАММ:${UNSETTLED_CONFIDENCE}`]);
    expect(merge([at('Эсппеаег', 0, 0)], [at('Schneider', 96, 0)])).toEqual(['Schneider:96']);
  });

  it('does not let a dictionary word hide a brand: capitals only, a glyph after it, or a non-word with a Cyrillic-only letter', () => {
    const withTem = { has: (word: string) => ['тем', 'масло'].includes(word.toLowerCase()), isNounLemma: () => false, isCommon: () => false };
    expect(merge([at('ТЕМ!', 62, 0)], [at('TRW', 89, 0)], withTem)).toEqual(['TRW:89']);
    // "Сегезй" has a Cyrillic-only letter and a sure rus read; the dictionary does not know it, so the brand wins.
    expect(merge([at('Сегезй', 88, 0)], [at('Ceresit', 92, 0)])).toEqual(['Ceresit:92']);
    expect(merge([at('Сегезй', 88, 0)], [at('Ceresit', 92, 0)], null)).toEqual([`Сегезй:${UNSETTLED_CONFIDENCE}`]);
  });

  it('ignores a cross word whose box is stretched over the rus words after it', () => {
    // The cross read's "клейкая" box spans "19 мм 33" too; its own words for them come separately.
    const rus = [at('Лента', 91, 0), at('клейкая', 97, 90), at('19', 97, 230), at('мм', 90, 270), at('33', 95, 320)];
    const cross = [at('Лента', 91, 0), { ...at('клейкая', 97, 90), width: 280 }, at('19', 97, 230), at('мм', 66, 270), at('33', 92, 320)];
    expect(merge(rus, cross).map((t) => t.split(':')[0])).toEqual(['Лента', 'клейкая', '19', 'мм', '33']);
  });

  it('splits one rus word that is several cross words with the space lost ("МФУНР" = "МФУ" + "HP")', () => {
    const rus = [at('МФУНР', 85, 0)];
    const cross = [at('МФУ', 96, 0), at('HP', 94, 56)];
    expect(merge(rus, cross)).toEqual(['МФУ:96', 'HP:94']);
  });
});

describe('agreedLatinWords: a Latin word the rus+eng and the eng reads both give, over a rus read that is no word', () => {
  const at = (text: string, conf: number, left: number): Word => ({ text, conf, left, top: 100, width: 16 * text.length, height: 20, line: '1' });
  const dict = { has: (word: string) => ['штукатурка', 'масло'].includes(word.toLowerCase()), isNounLemma: () => false, isCommon: () => false };
  const agree = (column: Word[], cross: Word[], latin: Word[], d: typeof dict | null = dict) =>
    agreedLatinWords(column, column, cross, latin, 20, d)
      .sort((a, b) => a.left - b.left)
      .map((w) => w.text);

  it('takes the word both Latin reads give letter for letter, unsure as they are', () => {
    expect(agree([at('Knauf', 90, 0), at('Вобапа,', 48, 100)], [at('Rotband,', 38, 100)], [at('Rotband,', 38, 100)])).toEqual(['Knauf', 'Rotband,']);
  });

  it('keeps a Russian word form, a unit, a word the reads disagree on, and short words', () => {
    expect(agree([at('Масло', 60, 0)], [at('Macno', 40, 0)], [at('Macno', 40, 0)])).toEqual(['Масло']);
    expect(agree([at('Вт/м', 60, 0)], [at('Brim', 40, 0)], [at('Brim', 40, 0)])).toEqual(['Вт/м']);
    expect(agree([at('Вобапа', 48, 0)], [at('Rotband', 38, 0)], [at('Rothand', 38, 0)])).toEqual(['Вобапа']);
    expect(agree([at('Вг', 48, 0)], [at('Br', 38, 0)], [at('Br', 38, 0)])).toEqual(['Вг']);
    // One word of about the same length only: not two words under one box, not a shorter word for a longer one.
    expect(agree([at('помол', 60, 0), at('№', 60, 50)], [at('tans', 30, 0)], [at('tans', 30, 0)])).toEqual(['помол', '№']);
    expect(agree([at('Ламиназ', 48, 0)], [at('Dasma', 38, 0)], [at('Dasma', 38, 0)])).toEqual(['Ламиназ']);
    expect(agree([at('Вобапа', 48, 0)], [at('Rotband', 38, 0)], [at('Rotband', 8, 0)])).toEqual(['Вобапа']);
    expect(agree([at('Вобапа', 48, 0)], [at('Rotband', 38, 0)], [at('Rotband', 38, 0)], null)).toEqual(['Вобапа']);
  });

  it('keeps a lower-case Cyrillic word under a lower-case Latin one: a brand is printed capitalised', () => {
    expect(agree([at('вемкипр', 30, 0)], [at('vemkunp', 40, 0)], [at('vemkunp', 40, 0)])).toEqual(['вемкипр']);
    expect(agree([at('вемкипр,', 30, 0)], [at('vemkunp,', 40, 0)], [at('vemkunp,', 40, 0)])).toEqual(['вемкипр,']);
    // A capitalised Latin word over a capitalised Cyrillic one is still taken.
    expect(agree([at('Вемкипр', 30, 0)], [at('Vemkunp', 40, 0)], [at('Vemkunp', 40, 0)])).toEqual(['Vemkunp']);
  });
});

describe('mergeLatinReading: a third, eng-only read for codes both earlier reads left in look-alike capitals', () => {
  const at = (text: string, conf: number, left: number): Word => ({ text, conf, left, top: 100, width: 16 * text.length, height: 20, line: '1' });
  const merge = (column: Word[], latin: Word[]) =>
    mergeLatinReading(column, column, latin, 20)
      .sort((a, b) => a.left - b.left)
      .map((w) => w.text);

  it('asks only about words with no Russian letter, or with a glyph the rus model uses for a Latin letter', () => {
    for (const t of ['МКТ', 'АКМО00517,', 'В-134А', 'МУН-)', 'И!', 'MKT']) expect(latinCandidate(t), t).toBe(true);
    for (const t of ['Свеча', 'мм', 'ГОСТ', '125', '«', 'Ач']) expect(latinCandidate(t), t).toBe(false);
    // A bracket that opens a word is punctuation, not a glyph for a Latin letter: an abbreviation with a Cyrillic-only
    // letter stays Russian after it; a code of look-alike capitals, or with a glyph of its own, is still asked about.
    for (const t of ['(КПБ', '((ЛДСП']) expect(latinCandidate(t), t).toBe(false);
    for (const t of ['(МКТ', '(И!']) expect(latinCandidate(t), t).toBe(true);
  });

  it('reads a б between capitals or digits as the 6 of a code, not as a Russian letter', () => {
    for (const t of ['ВКВбЕ-17', 'ВКМбЕ-17', 'ТКб1', '4б8Р']) expect(latinCandidate(t), t).toBe(true);
    for (const t of ['ВКМбе-17', 'б/у', 'ПВб', 'бХ']) expect(latinCandidate(t), t).toBe(false);
    expect(explainedByMissingLatin('ВКВбЕ-17', 'BKR6E-17')).toBe(true);
    // № for N, and a zero read as O by the eng model.
    expect(explainedByMissingLatin('АТ№000517,', 'ATNO00517,')).toBe(true);
    expect(explainedByMissingLatin('АТ№000517,', 'ATNO00B17,')).toBe(false);
    expect(merge([at('Вилка', 95, 0), at('ВКВбЕ-17', 84, 100)], [at('BKR6E-17', 30, 100)])).toEqual(['Вилка', 'BKR6E-17']);
  });

  it('takes the letters of an eng reading that read a run digit once more or once less, keeping the rus characters', () => {
    expect(mendedByMissingLatin('АТМО00517,', 'ATNO000517,')).toBe('АТNО00517,');
    // The rus reading's extra 0 stays; its К is Cyrillic until extract/script.ts settles the token's script.
    expect(mendedByMissingLatin('ОКМ5500', 'DKN550')).toBe('DКN5500');
    expect(mendedByMissingLatin('АТМО00517', 'ATNO00517')).toBeNull(); // equal length: taken whole elsewhere
    expect(mendedByMissingLatin('АТМО00517', 'ATNO0005177')).toBeNull(); // two characters more
    expect(mendedByMissingLatin('АТМ512', 'ATN5127')).toBeNull(); // the extra digit is in no run
    expect(mendedByMissingLatin('АТК5002', 'ATK50002')).toBeNull(); // nothing the rus model lacks
    expect(mendedByMissingLatin('АТМО00517', 'ATNO0O0517')).toBe('АТNО00517'); // an O in the run
    expect(merge([at('Рамка', 95, 0), at('АТМО00517,', 70, 100)], [at('ATNO000517,', 40, 100)])).toEqual(['Рамка', 'АТNО00517,']);
    expect(merge([at('АТМО00517,', 70, 0)], [at('ATNO000517,', 9, 0)])).toEqual(['АТМО00517,']); // under the floor
  });

  it('takes the eng reading of a code or brand whose letters the rus model lacks', () => {
    expect(merge([at('Фара', 95, 0), at('МКТ', 93, 100)], [at('Fapa', 70, 0), at('NKT', 88, 100)])).toEqual(['Фара', 'NKT']);
    expect(merge([at('Хладон', 95, 0), at('В-134А,', 90, 130)], [at('R-134A,', 91, 130)])).toEqual(['Хладон', 'R-134A,']);
    expect(merge([at('USB', 95, 0), at('И!', 72, 80)], [at('II', 80, 80)])).toEqual(['USB', 'II']);
  });

  it('takes an unsure eng reading that differs from the rus one only where the rus model lacks the Latin letter', () => {
    expect(explainedByMissingLatin('В-410А.', 'R-410A.')).toBe(true);
    expect(explainedByMissingLatin('МУМ-', 'NYM-')).toBe(true);
    expect(explainedByMissingLatin('МУМ-)', 'NYM-J')).toBe(true); // a bracket for J
    expect(explainedByMissingLatin('МУМ-]|', 'NYM-}')).toBe(true); // a rule's remnant after it
    expect(explainedByMissingLatin('ВХ750М!-СЮ,', 'BX750MI-GR,')).toBe(true); // ! for I, С for G, Ю for R
    expect(explainedByMissingLatin('ВХ750М-СЮ', 'BX750MI-GR')).toBe(false); // the I lost in the rus reading
    expect(explainedByMissingLatin('С081550', 'GDB1550')).toBe(false); // D for 8: no letter the rus model lacks
    expect(explainedByMissingLatin('ВКЯбЕ.11', 'BKRGE-11')).toBe(false); // G for б: the eng model's own misread
    expect(explainedByMissingLatin('КС-250', 'KC-250')).toBe(false); // nothing the rus model lacks
    expect(explainedByMissingLatin('В-410', 'R-410A')).toBe(false); // a character more
    expect(merge([at('Хладагент', 95, 0), at('В-410А,', 42, 160)], [at('R-410A,', 12, 160)])).toEqual(['Хладагент', 'R-410A,']);
    expect(merge([at('МКТ', 93, 0)], [at('NKT', 55, 0)])).toEqual(['NKT']);
    // Below the floor, or not explained letter by letter, an unsure eng word changes nothing.
    expect(merge([at('В-410А,', 42, 0)], [at('R-410A,', 9, 0)])).toEqual(['В-410А,']);
    expect(merge([at('ВКЯбЕ.11', 84, 0)], [at('BKRGE-11', 27, 0)])).toEqual(['ВКЯбЕ.11']);
  });

  it('keeps the words when the glyphs are the same, the eng word is unsure, short, or Cyrillic, or covers a Russian word', () => {
    // Same glyphs: the script of a look-alike code is left to the script rules.
    expect(merge([at('КС-250', 91, 0)], [at('KC-250', 92, 0)])).toEqual(['КС-250']);
    expect(merge([at('МКТ', 93, 0)], [at('NKF', 55, 0)])).toEqual(['МКТ']);
    expect(merge([at('Т', 60, 0)], [at('t', 90, 0)])).toEqual(['Т']);
    expect(merge([at('Свеча', 60, 0)], [at('Cbeva', 90, 0)])).toEqual(['Свеча']);
  });
});

describe('loadRussianWords: the ru_RU Hunspell dictionary', () => {
  it('knows inflected Russian word forms in any case and not OCR garbage or Latin look-alikes', async () => {
    const words = await loadRussianWords();
    expect(words).not.toBeNull();
    for (const w of ['Масло', 'заземлением', 'Щётки', 'щетки', 'ОЦИНКОВАННЫЙ', 'штукатурная']) expect(words!.has(w), w).toBe(true);
    for (const w of ['Macno', 'ЩЁётки', 'Эсппеаег', 'Вофапа']) expect(words!.has(w), w).toBe(false);
  }, 60_000);
});

describe('spellNames: an unsure name word one letter from a Russian word form', () => {
  it('takes the only known word one edit away, and nothing when there are two or none', async () => {
    const d = (await loadRussianWords())!;
    expect(nearestWord('оцинковакный', d)).toBe('оцинкованный');
    expect(nearestWord('шлифовалъная', d)).toBe('шлифовальная');
    expect(nearestWord('красныи', d)).toBeNull(); // красный, красные, красных
    expect(nearestWord('пенополистирольный', d)).toBeNull(); // a compound the dictionary lacks: no neighbour either
  }, 60_000);

  it('among several known words one edit away, takes the only one reached by a look-alike letter', async () => {
    const d = (await loadRussianWords())!;
    expect(nearestWord('пластима', d)).toBe('пластина'); // м for н; the other forms change other letters
    expect(nearestWord('бомтов', d)).toBe('болтов');
    // Only look-alike candidates when asked (a confident photo word): one unrelated edit is no evidence.
    expect(nearestWord('шлифовалъная', d, true)).toBeNull(); // ъ for ь is not a blur of the photo
    expect(nearestWord('пластима', d, true)).toBe('пластина');
  }, 60_000);

  it('among several look-alike forms, takes the only noun in its dictionary form', async () => {
    const d = (await loadRussianWords())!;
    expect(nearestWord('дремь', d)).toBe('дрель'); // not `дремы`, a form of `дрёма`
    expect(nearestWord('жран', d)).toBe('кран'); // not the verb form `жрал`
    expect(nearestWord('мошок', d)).toBe('мешок'); // not the genitive `мошек`
    expect(nearestWord('мошок', d, true)).toBe('мешок');
  }, 60_000);

  it('among several forms none of which a look-alike or a noun settles, takes the only common one', async () => {
    const d = (await loadRussianWords())!;
    expect(d.isCommon('крепление')).toBe(true);
    expect(d.isCommon('крепленые')).toBe(false);
    // у for и is no look-alike: крепление, крепленое, крепленые, крепленую are all one edit away, one is common.
    expect(nearestWord('крепленуе', d)).toBe('крепление');
    expect(nearestWord('крепленуе', d, true)).toBeNull(); // a confident photo word: look-alike letters only
  }, 60_000);

  it('on a photo spells a confident unknown word by a look-alike letter, or a long one by its only neighbour; elsewhere it stays as read', async () => {
    const d = await loadRussianWords();
    const ws = [w('пластима', 92), w('шлифовалъная', 92), w('Кронштейн', 95), w('оцинжованмый', 90), w('гвоздъ', 92), w('крепленуе', 92)];
    // Two look-alike letters in a long word are a photo's kind of misread too; a long word's only form one edit away
    // (ъ for ь) is taken; a short one (`гвоздъ`: six letters) and one with rivals (`крепленуе`) stay.
    expect(spellNames(ws, () => true, d, true).map((x) => x.text)).toEqual([
      'пластина',
      'шлифовальная',
      'Кронштейн',
      'оцинкованный',
      'гвоздъ',
      'крепленуе',
    ]);
    expect(spellNames(ws, () => true, d, false).map((x) => x.text)).toEqual([
      'пластима',
      'шлифовалъная',
      'Кронштейн',
      'оцинжованмый',
      'гвоздъ',
      'крепленуе',
    ]);
  }, 60_000);

  it("leaves a catalogue word Hunspell lacks but Tesseract's word list has, however it was scored", async () => {
    const d = (await loadRussianWords())!;
    // Each is one edit from a single Hunspell form (коннектор, обыватель), which it would otherwise become.
    expect(d.has('конвектор')).toBe(false);
    expect(d.isCommon('конвектор')).toBe(true);
    expect(onlyWordOneEditAway('конвектор', d)).toBe('коннектор');
    const ws = [w('Конвектор', 92), w('омыватель', 40)];
    expect(spellNames(ws, () => true, d, true).map((x) => x.text)).toEqual(['Конвектор', 'омыватель']);
  }, 60_000);

  it("never drops a word's first letter: a letter too many at the start is more often a prefix the dictionary lacks", async () => {
    const d = (await loadRussianWords())!;
    expect(d.has('сдекорированный')).toBe(false);
    expect(d.has('декорированный')).toBe(true);
    expect(nearestWord('сдекорированный', d)).toBeNull();
    expect(onlyWordOneEditAway('сдекорированный', d)).toBeNull();
    expect(spellNames([w('сдекорированный', 40)], () => true, d, true)[0].text).toBe('сдекорированный');
    // A letter dropped elsewhere is still mended, and a confident word takes no shorter form.
    expect(nearestWord('шлифоваальная', d)).toBe('шлифовальная');
    expect(onlyWordOneEditAway('шлифоваальная', d)).toBeNull();
    expect(onlyWordOneEditAway('шлифовалъная', d)).toBe('шлифовальная');
  }, 60_000);

  it("reads ю for the о a neighbour's stem joined", async () => {
    const d = (await loadRussianWords())!;
    expect(readsLookalike('ю', 'о')).toBe(true);
    expect(nearestWord('водостюйкая', d, true)).toBe('водостойкая');
  }, 60_000);

  it('spells a four-letter part of a hyphenated word by a look-alike letter, not a short word alone', async () => {
    const d = await loadRussianWords();
    const ws = [w('“Фасад-Люжс”', 40), w('Люжс', 40), w('Фасад-Лющс', 40), w('Хрен-Люжс', 40)];
    // The other part is known once it is spelled itself.
    expect(spellNames([w('“Фэасад-Люжс”', 59)], () => true, d).map((x) => x.text)).toEqual(['“Фасад-Люкс”']);
    // A lone four-letter word has no known partner to vouch for it; щ for к is no look-alike.
    expect(spellNames(ws, () => true, d).map((x) => x.text)).toEqual(['“Фасад-Люкс”', 'Люжс', 'Фасад-Лющс', 'Хрен-Люкс']);
  }, 60_000);

  it('spells a word in typographic quotes as it does one in straight quotes or guillemets', async () => {
    const d = await loadRussianWords();
    const ws = [w('“Кронштеин”', 40), w('„пластима“', 40), w('«оцинковакный»', 40)];
    expect(spellNames(ws, () => true, d).map((x) => x.text)).toEqual(['“Кронштейн”', '„пластина“', '«оцинкованный»']);
  }, 60_000);

  it('takes the only known word two look-alike letters away in a long word, and only there', async () => {
    const d = (await loadRussianWords())!;
    expect(nearestLookalikeWord('оцинжованмый', d)).toBe('оцинкованный'); // ж for к, м for н
    expect(nearestLookalikeWord('алюмимиевьй', d)).toBe('алюминиевый'); // м for н, ь for ы
    expect(nearestLookalikeWord('ламимированмый', d)).toBe('ламинированный');
    // Shorter than eight letters: too many words are two letters apart there.
    expect(nearestLookalikeWord('краснмй', d)).toBeNull();
    // Two changes that are not look-alikes (у for о, у for ы) are not tried; а and о are.
    expect(nearestLookalikeWord('оцинкуваннуй', d)).toBeNull();
    expect(nearestLookalikeWord('оцинкавонный', d)).toBe('оцинкованный');
    const ws = [w('Профиль', 90), w('оцинжованмый', 40)];
    expect(spellNames(ws, () => true, d).map((x) => x.text)).toEqual(['Профиль', 'оцинкованный']);
  }, 60_000);

  it('knows compounds of known parts the dictionary lacks, and mends a misread letter before their known tail', async () => {
    const d = (await loadRussianWords())!;
    for (const word of ['газосиликатный', 'металлочерепица', 'гипсокартонный', 'металлопрофиль', 'термоусадочная']) {
      expect(d.has(word)).toBe(false);
      expect(isCompound(word, d)).toBe(true);
    }
    // A misread is no compound: no known stem before a linking vowel, or no known tail.
    expect(isCompound('оцинковакный', d)).toBe(false);
    expect(isCompound('пароизоляциоммая', d)).toBe(false);
    // `л` for `п` in the first part: only `гипсо-` makes a compound with the known tail.
    expect(nearestCompound('гилсокартонный', d)).toBe('гипсокартонный');
    // A first part of three letters has many one-edit stems: nothing is settled.
    expect(nearestCompound('гаобетонный', d)).toBeNull();
    // A look-alike letter in the known tail instead (`м` for `н`); of two such tails (`гранит`, `громит`: `а` for
    // `о`), the noun in its dictionary form.
    expect(nearestCompound('гипсокартомный', d)).toBe('гипсокартонный');
    expect(nearestCompound('пенополистирольмый', d)).toBe('пенополистирольный');
    expect(nearestCompound('стеклограмит', d)).toBe('стеклогранит');
    expect(nearestCompound('стеклогращит', d)).toBeNull(); // щ for н is no look-alike
    const ws = [w('Газосиликатный', 40), w('гилсокартонный', 40)];
    expect(spellNames(ws, () => true, d).map((x) => x.text)).toEqual(['Газосиликатный', 'гипсокартонный']);
  }, 60_000);

  it('knows a noun in its dictionary form by its declension flags, not an inflected form, an adjective or a verb', async () => {
    expect([...nounLemmas('3\nрейка/I\nкрасный/AES\nделать/BLMP\nножницы/O\nЧПУ\nёлка/I\n')].sort()).toEqual(['елка', 'ножницы', 'рейка']);
    const d = (await loadRussianWords())!;
    for (const word of ['рейка', 'стул', 'шина', 'ножницы', 'ёлка']) expect(d.isNounLemma(word), word).toBe(true);
    for (const word of ['рейха', 'ступ', 'шила', 'красный', 'делать', 'рейки']) expect(d.isNounLemma(word), word).toBe(false);
  }, 60_000);

  it('turns a capitalised known word that is no noun in its dictionary form into the only such noun one look-alike away', async () => {
    const d = (await loadRussianWords())!;
    expect(nearestNounLemma('рейха', d)).toBe('рейка'); // х for к
    expect(nearestNounLemma('ступ', d)).toBe('стул'); // п for л
    expect(nearestNounLemma('рейка', d)).toBeNull(); // a noun already
    expect(nearestNounLemma('белая', d)).toBeNull(); // an adjective with no such neighbour
    const ws = [
      w('Рейха', 95),
      w('Ступ,', 60),
      w('рейха', 60),
      w('Белая', 60),
      w('Перчатки', 60),
      w('Ступ-Рейха', 60),
      w('Шила', 60),
      w('«Рейха»', 60),
    ];
    // Only a capitalised word (an item name's head noun), the first part of a hyphenated one, a photo's sure word too;
    // not a word with two such nouns near (`шина`, `шило`), nor one in quotes (a trade name).
    expect(spellNames(ws, () => true, d, true).map((x) => x.text)).toEqual([
      'Рейка',
      'Стул,',
      'рейха',
      'Белая',
      'Перчатки',
      'Стул-Рейха',
      'Шила',
      '«Рейха»',
    ]);
    // A sure word off a photo stays as read.
    expect(spellNames(ws.slice(0, 1), () => true, d, false).map((x) => x.text)).toEqual(['Рейха']);
  }, 60_000);

  it('corrects unsure words of the column only, keeps a capital, the punctuation and the low score', async () => {
    const d = await loadRussianWords();
    const ws = [w('Полипрппиленовый', 40), w('нержавеюшая,', 70), w('нержавеюшая', SPELL_BELOW), w('ТЕХНОНИКОЛЬ', 30), w('Кронштейн', 20)];
    const out = spellNames(ws, (x) => x !== ws[4], d);
    expect(out.map((x) => x.text)).toEqual(['Полипропиленовый', 'нержавеющая,', 'нержавеюшая', 'ТЕХНОНИКОЛЬ', 'Кронштейн']);
    expect(out[0].conf).toBe(40);
    expect(spellNames(ws, () => true, null)).toBe(ws);
  }, 60_000);
});

describe('wordFromChoices: a misread word spelled by the letters Tesseract weighed for its glyphs', () => {
  /** Letters of `read`, each glyph with the runner-ups given for its index: `{ 1: [['а', 40]] }`. */
  const lettersOf = (read: string, runnerUps: Record<number, [string, number][]> = {}): LetterChoices[] =>
    [...read].map((text, i) => ({ text, choices: [{ text, conf: 90 }, ...(runnerUps[i] ?? []).map(([c, conf]) => ({ text: c, conf }))] }));

  it('takes the only known word reached by one or two runner-up letters', async () => {
    const d = (await loadRussianWords())!;
    expect(wordFromChoices(lettersOf('шойбо', { 1: [['а', 40]], 4: [['а', 35]] }), d)).toBe('шайба');
    expect(
      wordFromChoices(
        lettersOf('шойба', {
          1: [
            ['а', 40],
            ['ю', 30],
          ],
        }),
        d,
      ),
    ).toBe('шайба');
  }, 60_000);

  it('among several, takes the only noun in its dictionary form, and none when no noun decides', async () => {
    const d = (await loadRussianWords())!;
    expect(
      wordFromChoices(
        lettersOf('гайкм', {
          4: [
            ['а', 40],
            ['и', 30],
          ],
        }),
        d,
      ),
    ).toBe('гайка'); // not the plural гайки
    expect(
      wordFromChoices(
        lettersOf('велый', {
          0: [
            ['б', 40],
            ['ц', 40],
          ],
        }),
        d,
      ),
    ).toBeNull(); // белый, целый
  }, 60_000);

  it('ignores runner-ups below the floor, Latin ones and more than two changes', async () => {
    const d = (await loadRussianWords())!;
    expect(wordFromChoices(lettersOf('шойба', { 1: [['а', MIN_CHOICE_SCORE - 1]] }), d)).toBeNull();
    expect(wordFromChoices(lettersOf('шойба', { 1: [['a', 60]] }), d)).toBeNull(); // a Latin a
    expect(wordFromChoices(lettersOf('шойбо', { 0: [['щ', 50]], 1: [['а', 40]], 4: [['а', 35]] }), d)).toBe('шайба');
    expect(wordFromChoices(lettersOf('щойбо', { 0: [['ш', 50]], 1: [['а', 40]], 4: [['а', 35]] }), d)).toBeNull(); // three changes
  }, 60_000);

  it('spells an unsure column word from the glyphs of the rus+eng reading over it, which no edit rule reaches', async () => {
    const d = await loadRussianWords();
    const rus = { ...w('гайкм,', 40), left: 100, top: 100 };
    const glyphs = [...'гайкм,'].map((text, i) => ({
      text,
      conf: 90,
      choices:
        i === 4
          ? [
              { text: 'и', conf: 30 },
              { text: 'a', conf: 45 },
            ]
          : [], // a Latin a, Cyrillic а once turned
    }));
    const cross: WordWithChoices = { ...rus, conf: 45, glyphs };
    expect(spellNames([rus], () => true, d, false, [cross]).map((x) => x.text)).toEqual(['гайка,']);
    // Without the reading, or with one of another length or on another line, it stays as read.
    expect(spellNames([rus], () => true, d).map((x) => x.text)).toEqual(['гайкм,']);
    expect(spellNames([rus], () => true, d, false, [{ ...cross, glyphs: glyphs.slice(1) }]).map((x) => x.text)).toEqual(['гайкм,']);
    expect(spellNames([rus], () => true, d, false, [{ ...cross, top: 200 }]).map((x) => x.text)).toEqual(['гайкм,']);
  }, 60_000);
});

describe('locateNameColumn: the name column of a page read before its tilt is levelled', () => {
  it('finds the column of a page turned 1.2° (a scan), where the column-number row spans two text lines', () => {
    const page = loadFixture('upd-2pages', 2).pages[0];
    const width = Math.max(...page.words.map((w) => w.left + w.width)) + 100;
    const height = Math.max(...page.words.map((w) => w.top + w.height)) + 100;
    // Tilt the real page read: levelling by −1.2° turns level boxes and rules by +1.2°.
    const words = levelWords(page.words, -1.2, width / 2, height / 2);
    const rules = levelRules(page.rules ?? [], -1.2, width / 2, height / 2);
    const found = locateNameColumn(words, rules, width, height);
    expect(found).not.toBeNull();
    // The plain finder saw no column here until the column-number row could be skipped for the rules alone
    // (columns.ts rowByRules); now it finds one, and it must be the same column.
    const plain = nameColumn(words, rules);
    expect(plain).not.toBeNull();
    const mid = (plain!.left + plain!.right) / 2;
    expect(mid).toBeGreaterThan(found!.box.left);
    expect(mid).toBeLessThan(found!.box.left + found!.box.width);
    const level = locateNameColumn(page.words, page.rules ?? [], width, height)!;
    expect(found!.names.map((w) => w.text)).toEqual(level.names.map((w) => w.text));
    for (const w of found!.names) {
      expect(w.left).toBeGreaterThanOrEqual(found!.box.left);
      expect(w.left + w.width).toBeLessThanOrEqual(found!.box.left + found!.box.width);
    }
  });
});
