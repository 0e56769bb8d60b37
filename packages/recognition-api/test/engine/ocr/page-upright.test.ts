import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadRussianWords } from '../../../src/engine/extract/russian-words.js';
import type { Word } from '../../../src/engine/extract/words.js';
import { MIN_UPRIGHT_WORDS, turnOrder, turnUpright, uprightWords } from '../../../src/engine/ocr/page-ocr.js';

const word = (text: string, conf = 90): Word => ({ text, conf, left: 0, top: 0, width: 10, height: 10, line: '1' });

// Made-up lines: an upright read of a goods line, and what the rus model makes of the same page upside down (a
// mirror alphabet of confident Cyrillic-looking strings).
const upright = ['Гвозди', 'строительные,', '«оцинкованные»', 'упаковка', 'коробка', 'Доставка'];
const turned = ['эинезон', 'ИНЕИЖ', 'иолену', 'эони', 'чнауэв', 'идофо'];

describe('uprightWords: how much of a page read is Russian (page-ocr.ts)', () => {
  it('counts confident dictionary words of four letters or more, punctuation around them allowed', async () => {
    const dict = await loadRussianWords();
    expect(dict).not.toBeNull();
    expect(
      uprightWords(
        upright.map((t) => word(t)),
        dict,
      ),
    ).toBe(upright.length);
  });

  it('does not count the confident strings of a page upside down, which the old measure took for words', async () => {
    const dict = await loadRussianWords();
    const words = turned.map((t) => word(t));
    expect(uprightWords(words, dict)).toBe(0);
    // Without the dictionary the old measure is all there is: Cyrillic strings of three letters or more.
    expect(uprightWords(words, null)).toBe(turned.length);
  });

  it('leaves out unsure words, short words and words glued to digits', async () => {
    const dict = await loadRussianWords();
    const words = [word('Гвозди', 59), word('для'), word('упаковка10'), word('коробка')];
    expect(uprightWords(words, dict)).toBe(1);
  });
});

describe('turnUpright: a page on its side or upside down turned back (page-ocr.ts)', () => {
  /** A fake page: its name and the turns applied to it; each step is recorded. */
  type Page = { name: string; turned: number };
  const known = (n: number) => Array.from({ length: n }, (_, i) => word(upright[i % upright.length]));
  const mirror = (n: number) => Array.from({ length: n }, (_, i) => word(turned[i % turned.length]));
  /** Fake steps: OSD's answer, the words read at each turn (or the same at every turn), the page's shape. */
  const steps = (osdTurn: number, turnedRead: Word[] | Record<number, Word[]>, portrait = false) => {
    const calls: string[] = [];
    return {
      calls,
      steps: {
        osd: async (p: Page) => {
          calls.push(`osd ${p.name}`);
          return osdTurn;
        },
        rotate: async (p: Page, degrees: number) => {
          calls.push(`rotate ${degrees}`);
          return { name: p.name, turned: degrees };
        },
        read: async (p: Page) => {
          calls.push(`read ${p.turned}`);
          return Array.isArray(turnedRead) ? turnedRead : (turnedRead[p.turned] ?? []);
        },
        portrait: () => portrait,
      },
    };
  };

  it('asks OSD about a page of confident strings that are no words, and keeps the turn that reads as Russian', async () => {
    const dict = await loadRussianWords();
    // Thirty confident Cyrillic-looking strings: the old count of strings took this for an upright page.
    const first = mirror(30);
    const { calls, steps: s } = steps(180, known(200));
    const out = await turnUpright<Page>({ name: 'p', turned: 0 }, first, dict, s);
    expect(out.rotated).toBe(180);
    expect(out.page).toEqual({ name: 'p', turned: 180 });
    expect(out.words).toHaveLength(200);
    expect(calls).toEqual(['osd p', 'rotate 180', 'read 180']);
  });

  it('keeps the page as read when the turn OSD proposes reads no better (a poor photo, little text)', async () => {
    const dict = await loadRussianWords();
    const first = [...known(10), ...mirror(15)];
    const { calls, steps: s } = steps(90, mirror(40));
    const out = await turnUpright<Page>({ name: 'p', turned: 0 }, first, dict, s);
    expect(out).toEqual({ page: { name: 'p', turned: 0 }, words: first, rotated: 0 });
    // OSD's turn first, then the others by the page's shape (landscape: upside down first); none reads better.
    expect(calls).toEqual(['osd p', 'rotate 90', 'read 90', 'rotate 180', 'read 180', 'rotate 270', 'read 270']);
  });

  it('does not ask OSD about a page that reads as Russian', async () => {
    const dict = await loadRussianWords();
    const sure = steps(180, known(200));
    expect((await turnUpright<Page>({ name: 'p', turned: 0 }, known(MIN_UPRIGHT_WORDS), dict, sure.steps)).rotated).toBe(0);
    expect(sure.calls).toEqual([]);
  });

  it('tries the page upside down when OSD sees no turn (a blurred photo), and keeps it only when it reads better', async () => {
    const dict = await loadRussianWords();
    const upsideDown = steps(0, known(120));
    const out = await turnUpright<Page>({ name: 'p', turned: 0 }, mirror(30), dict, upsideDown.steps);
    expect(out.rotated).toBe(180);
    expect(upsideDown.calls).toEqual(['osd p', 'rotate 180', 'read 180']);
    const poor = steps(0, mirror(60));
    const first = [...known(3), ...mirror(20)];
    // A sparse upright page (signatures, a total) with a few known words, and as many by chance upside down.
    const sparse = steps(0, known(12));
    const few = known(8);
    expect(await turnUpright<Page>({ name: 'p', turned: 0 }, few, dict, sparse.steps)).toEqual({
      page: { name: 'p', turned: 0 },
      words: few,
      rotated: 0,
    });
    expect(await turnUpright<Page>({ name: 'p', turned: 0 }, first, dict, poor.steps)).toEqual({
      page: { name: 'p', turned: 0 },
      words: first,
      rotated: 0,
    });
  });

  it('reads a portrait page on its side both ways when OSD refuses it, and stops at the turn that reads as Russian', async () => {
    const dict = await loadRussianWords();
    // OSD says 0 ("too few characters" on a phone photo of a landscape form taken the long way up).
    const { calls, steps: s } = steps(0, { 90: mirror(40), 270: known(150), 180: known(150) }, true);
    const out = await turnUpright<Page>({ name: 'p', turned: 0 }, mirror(46), dict, s);
    expect(out.rotated).toBe(270);
    expect(out.words).toHaveLength(150);
    expect(calls).toEqual(['osd p', 'rotate 90', 'read 90', 'rotate 270', 'read 270']);
  });

  it('keeps the best turn when none reads as a whole Russian page, if it clears the margin', async () => {
    const dict = await loadRussianWords();
    const { steps: s } = steps(0, { 180: known(6), 90: known(12), 270: known(8) });
    expect((await turnUpright<Page>({ name: 'p', turned: 0 }, mirror(30), dict, s)).rotated).toBe(90);
    // One known word in the first read: a turn needs 2 × 1 + 5 = 7, so 6 stays below and 8 passes.
    const { steps: t } = steps(0, { 180: known(6), 90: known(5), 270: known(7) });
    expect((await turnUpright<Page>({ name: 'p', turned: 0 }, [...known(1), ...mirror(30)], dict, t)).rotated).toBe(270);
    const { steps: u } = steps(0, { 180: known(6), 90: known(5), 270: known(6) });
    expect((await turnUpright<Page>({ name: 'p', turned: 0 }, [...known(1), ...mirror(30)], dict, u)).rotated).toBe(0);
  });

  it('tries every turn of a page that read as nothing at all (a scan on its side can read as no word)', async () => {
    const dict = await loadRussianWords();
    const { calls, steps: s } = steps(270, { 270: known(220) }, true);
    const out = await turnUpright<Page>({ name: 'p', turned: 0 }, [], dict, s);
    expect(out.rotated).toBe(270);
    expect(calls).toEqual(['osd p', 'rotate 270', 'read 270']);
    // A blank page: every turn reads as nothing, and the page stays as it is.
    const blank = steps(0, []);
    expect(await turnUpright<Page>({ name: 'p', turned: 0 }, [], dict, blank.steps)).toEqual({
      page: { name: 'p', turned: 0 },
      words: [],
      rotated: 0,
    });
    expect(blank.calls).toHaveLength(7);
  });
});

describe('turnOrder: the turns tried, OSD first, then by the page shape (page-ocr.ts)', () => {
  it('tries a portrait image on its side first and a landscape one upside down first', () => {
    expect(turnOrder(0, true)).toEqual([90, 270, 180]);
    expect(turnOrder(0, false)).toEqual([180, 90, 270]);
    expect(turnOrder(270, true)).toEqual([270, 90, 180]);
    expect(turnOrder(90, false)).toEqual([90, 180, 270]);
  });
});

describe('turnUpright: properties over any reads (page-ocr.ts)', () => {
  /** Known words in the first read and at each turn, OSD's answer, and the page's shape. */
  // Half the counts near the thresholds (25 known words, the margin), where the decisions are made.
  const count = fc.oneof(fc.nat({ max: 30 }), fc.nat({ max: 300 }));
  const arbitraryPage = fc.record({
    first: fc.oneof(fc.nat({ max: 12 }), fc.nat({ max: 60 })),
    at: fc.record({ 90: count, 180: count, 270: count }),
    osd: fc.constantFrom(0, 90, 180, 270),
    portrait: fc.boolean(),
  });

  it('keeps a turn only by the margin, returns that turn’s own read, never reads a turn twice, and leaves a Russian page alone', async () => {
    const dict = await loadRussianWords();
    const words = (n: number, tag: number) => Array.from({ length: n }, (_, i) => ({ ...word(upright[i % upright.length]), line: String(tag) }));
    await fc.assert(
      fc.asyncProperty(arbitraryPage, async ({ first, at, osd, portrait }) => {
        const reads: number[] = [];
        const out = await turnUpright<number>(0, words(first, 0), dict, {
          osd: async () => osd,
          rotate: async (_p, degrees) => degrees,
          read: async (turn) => {
            reads.push(turn);
            return words(at[turn as 90 | 180 | 270], turn);
          },
          portrait: () => portrait,
        });
        expect(new Set(reads).size).toBe(reads.length);
        if (first >= MIN_UPRIGHT_WORDS) {
          expect(reads).toEqual([]);
          expect(out.rotated).toBe(0);
          return;
        }
        expect(out.page).toBe(out.rotated);
        expect(reads[0]).toBe(turnOrder(osd, portrait)[0]);
        if (out.rotated === 0) {
          // Kept as read: every turn was read and none cleared the margin.
          expect(reads).toHaveLength(3);
          for (const t of reads) expect(at[t as 90 | 180 | 270]).toBeLessThan(2 * first + 5);
          return;
        }
        const kept = at[out.rotated as 90 | 180 | 270];
        expect(kept).toBeGreaterThanOrEqual(2 * first + 5);
        expect(out.words.every((w) => w.line === String(out.rotated))).toBe(true);
        // The best of the turns read; reading stops at a Russian page, and goes through every turn until one.
        for (const t of reads) expect(at[t as 90 | 180 | 270]).toBeLessThanOrEqual(kept);
        if (kept >= MIN_UPRIGHT_WORDS) expect(reads.at(-1)).toBe(out.rotated);
        else expect(reads).toHaveLength(3);
      }),
      { numRuns: 200 },
    );
  });
});
