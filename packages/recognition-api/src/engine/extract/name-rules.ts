/**
 * Rules for item names that standards and Russian print conventions make certain (issue 20, class 1 and 4): a
 * photo's OCR puts look-alike glyphs into places where the standard admits only one kind. Kept as data, each rule
 * with the reason it holds on any document; {@link cleanName} (items.ts) applies them after its own glyph classes.
 */

/** One rewrite of a name: where it applies, what it writes there, and why no real name is damaged by it. */
interface NameRule {
  readonly pattern: RegExp;
  readonly replace: (match: string) => string;
  readonly why: string;
}

/** Letters a photo reads for the figures of a designation that admits figures only (S for 5, O for 0, З for 3). */
const FIGURE_FOR_LETTER: Readonly<Record<string, string>> = { S: '5', O: '0', О: '0', З: '3' };

/** Units of length of two letters ending in м that may follow a size chain of three dimensions (a bare м stays as read). */
const CHAIN_UNITS = new Set(['мм', 'см']);

const NAME_RULES: readonly NameRule[] = [
  {
    // IP65, IPX4, IP2X; PN16, PN25; DN50: IEC 60529 gives IP two figures (or X), GOST 26349 and ISO 6708 give PN and
    // DN a number. A photo reads 5 as S and 0 as O there ("IP6S", "PN2S"); an X of an IP code stays.
    pattern: /(?<=(?:^|[\s(,])(?:IP|PN|DN)\s?)(?=[\dOОSЗX]*\d)[\dOОSЗX]{1,4}(?=[\s,;)]|$)/g,
    replace: (code) => code.replace(/[OОSЗ]/g, (c) => FIGURE_FOR_LETTER[c] ?? c),
    why: 'IP, PN and DN designations are figures by their standards',
  },
  {
    // "б/г" (без головы) read "б/т" or, with its slash lost in the blur, "бт": т is the glyph a blurred г becomes, and
    // neither is a word or an abbreviation a name prints.
    pattern: /(?<=^|[\s(])б\/?т(?=[\s,;)]|$)/g,
    replace: () => 'б/г',
    why: 'б/т and бт are no abbreviation; т is a blurred г',
  },
  {
    // "кат. 5e", "арт. 1234", "уп. 250 шт.": these abbreviations always take a point, which a blur may turn into a
    // comma; not after a number, where "уп" is a unit that may end a part of the name ("10 уп, синие").
    pattern: /(?<=(?:^|[\s(])(?<!\d\s?)(?:кат|арт|рис|уп|упак)),(?= \S)/g,
    replace: () => '.',
    why: 'abbreviations of a catalogue name take a point, never a comma',
  },
  {
    // A size chain of three dimensions ("1380х193х8") is followed by its unit; a short word ending in м there that is
    // no unit ("зам", "ам") is мм whose first м blurred into two letters.
    pattern: /(?<=(?:^|\s)\d+(?:,\d+)?[хx]\d+(?:,\d+)?[хx]\d+(?:,\d+)?\s)[а-яё]{1,2}м(?=[\s,;)]|$)/g,
    replace: (word) => (CHAIN_UNITS.has(word) ? word : 'мм'),
    why: 'three dimensions are followed by a unit of length',
  },
  {
    // A pack note "(уп. 250 шт.)": the count unit after its number blurs into look-alike pairs, ш into и, ц or щ and т
    // into п, г or л ("ип.", "цл."), none of them a word that ends with a point after a number; and its "уп." into
    // "ул.", which never opens a bracket before a number in an item name.
    pattern: /(?<=\d\s)[шщиц][тпгл](?=\.|\))|(?<=\()ул\.(?= \d)/g,
    replace: (word) => (word.startsWith('у') ? 'уп.' : 'шт'),
    why: 'a pack note counts in шт and opens with уп.',
  },
  {
    // "5к5 мм": a multiplication sign glued between two figures read as к; Russian puts no letter к between figures.
    pattern: /(?<=\d)к(?=\d)/g,
    replace: () => 'х',
    why: 'к never stands glued between two figures',
  },
];

/**
 * Applies the name rules ({@link NAME_RULES}) to a cleaned name: designations' figures (`IP6S` → `IP65`), `б/т` and
 * `бт` → `б/г`, an abbreviation's comma → point (`кат, 5e` → `кат. 5e`), a non-unit after a three-dimension size →
 * `мм`, a pack note's blurred `шт` and `уп.` (`(ул. 100 цл.)` → `(уп. 100 шт.)`), a glued `к` between figures → `х`.
 * Returns the name unchanged where no rule applies. Pure; raises nothing.
 */
export function applyNameRules(name: string): string {
  return NAME_RULES.reduce((text, rule) => text.replace(rule.pattern, rule.replace), name);
}
