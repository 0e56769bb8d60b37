/**
 * Training pages for fine-tuning the recogniser on photographed form type (scripts/ocr-training/train.ts; docs/recognition-photo.md "Session
 * 2026-11-30 (4)" and "(5)"): catalogue-like lines (words of Tesseract's own `rus` word list, sizes, weights, codes, standards,
 * quoted names) rendered by `text2image` in the fonts forms are printed in at 7–9 pt, then put through what a phone
 * photo and the engine's preparation do to them: reduced to 150–170 DPI, blurred (σ 0.9–1.6 px there), lighter and
 * greyer ink, JPEG quality 60–68, enlarged back to 300 DPI, deconvolved as `ocr/deblur.ts` does (σ 1.5), the paper
 * taken to white. Each page is written as `<out>/p<seed>-<i>.{gt,tif,box,lstmf}` and listed in
 * `<out>/list-<seed>.txt`. Seeded: the same seed writes the same text and degradations. No string of the
 * development set is used; the development set is what a tuned model is measured on.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { deblur } from '../deblur.js';
import { ADDED_CHARACTERS } from './extend-charset.js';

/** Fonts of printed Russian forms that Debian ships (`fonts-liberation`, `fonts-dejavu-core`), by text2image's names. */
export const FONTS = [
  'Liberation Sans',
  'Liberation Sans Narrow Condensed',
  'Liberation Serif',
  'DejaVu Sans',
  'DejaVu Sans Semi-Condensed',
  'DejaVu Serif',
];
const LINES_PER_PAGE = 12;
/**
 * Letters of model codes as the `rus` model spells them: the Latin capitals with a Cyrillic twin written as the
 * twin (the same glyph in these fonts; `extract/script.ts` turns a code's twins Latin), the others
 * ({@link ADDED_CHARACTERS}) as themselves, which the model learns to output when trained with them.
 */
const CODE_LETTERS = [...'АВСЕНКМОРТХУ', ...ADDED_CHARACTERS.filter((ch) => /[A-Z]/.test(ch))];

/** A deterministic generator (an LCG) of numbers in [0, 1). */
function random(seed: number): () => number {
  let s = (seed * 7919) % 2147483648;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** Catalogue-like lines from `words` (lower-case Russian word forms) with `rnd` choosing. */
export function catalogueLine(words: string[], rnd: () => number): string {
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)];
  const int = (max: number) => String(1 + Math.floor(rnd() * max));
  const letters = (n: number) => Array.from({ length: n }, () => pick(CODE_LETTERS)).join('');
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(rnd() * 10))).join('');
  const decimal = () => `${Math.floor(rnd() * 99)},${Math.floor(rnd() * 9)}`;
  // Model codes and articles in the shapes catalogues print them: letters then digits, digits then letters,
  // a dash and a suffix, a brand-like run of capitals.
  const codes = [
    () => `${letters(2 + Math.floor(rnd() * 3))}${rnd() < 0.3 ? '-' : ''}${digits(2 + Math.floor(rnd() * 4))}`,
    () => `${letters(1 + Math.floor(rnd() * 3))}${digits(1 + Math.floor(rnd() * 4))}${letters(1 + Math.floor(rnd() * 2))}-${digits(2)}`,
    () => `${digits(2 + Math.floor(rnd() * 3))}${letters(1 + Math.floor(rnd() * 2))}${rnd() < 0.5 ? `-${digits(2)}` : ''}`,
    () => `${letters(1)}-${digits(3 + Math.floor(rnd() * 2))}${letters(1)}`,
    () => `${letters(2 + Math.floor(rnd() * 3))}-${letters(1)}`,
    () => letters(2 + Math.floor(rnd() * 4)),
    () => `${letters(2 + Math.floor(rnd() * 3))} ${letters(1)}${digits(2 + Math.floor(rnd() * 3))}`,
  ];
  const code = () => pick(codes)();
  const word = () => pick(words);
  const extras = [
    () => `${int(999)}х${int(999)} мм`,
    () => `${int(999)}х${int(99)}х${int(999)} мм`,
    () => `${decimal()} кг`,
    () => `${int(999)} шт.`,
    () => `${int(999)} Вт`,
    () => `${decimal()} л`,
    () => `ГОСТ ${1000 + Math.floor(rnd() * 60000)}-${1990 + Math.floor(rnd() * 35)}`,
    () => `№ ${int(999)}/${Math.floor(rnd() * 9)}`,
    () => `(уп. ${int(999)} шт.)`,
    () => `${int(999)} г/м²`,
    () => `${int(99)} м²`,
    () => `${rnd() < 0.5 ? decimal() : int(99)} мм²`,
    // The rus model spells degrees Celsius with the Cyrillic С (extract/items.ts prints it Latin).
    () => `${pick(['', '-', '+'])}${int(999)} °С`,
    () => `${pick(['от', 'до'])} ${pick(['-', '+'])}${int(99)} °С`,
    () => `Ø${int(99)}`,
    () => `Ø ${int(999)} мм`,
    () => {
      const [open, close] = pick([
        ['«', '»'],
        ['«', '»'],
        ['"', '"'],
        ['“', '”'],
      ]);
      return `${open}${word().replace(/^./, (c) => c.toUpperCase())}${close}`;
    },
    () => `${rnd() < 0.5 ? decimal() : int(99)}${pick(['%', ' %'])}`,
    // Sizes and weights twice: plain text keeps its share beside the symbols, which a model trained on too many of
    // them reads into every small unclear glyph (docs/recognition-photo.md "Session 2026-11-30 (5)").
    () => `${int(999)}х${int(999)} мм`,
    () => `${decimal()} кг`,
    code,
    code,
    code,
    code,
    code,
  ];
  const parts = Array.from({ length: 1 + Math.floor(rnd() * 3) }, word);
  parts[0] = parts[0].replace(/^./, (c) => c.toUpperCase());
  for (let i = 0; i < 1 + Math.floor(rnd() * 3); i++) parts.splice(1 + Math.floor(rnd() * parts.length), 0, pick(extras)());
  return parts
    .map((p, i) => (i > 0 && rnd() < 0.08 ? `, ${p}` : ` ${p}`))
    .join('')
    .trim()
    .replace(/ ,/g, ',');
}

/**
 * Writes `pages` training pages for `seed` into `out`; `tessdata`/`lang` name the model whose unicharset the
 * `.lstmf` files are made with (the float copy, scripts/ocr-float-model.ts). Returns the `.lstmf` paths.
 */
export async function writeCorpus(out: string, pages: number, seed: number, words: string[], tessdata: string, lang: string): Promise<string[]> {
  mkdirSync(out, { recursive: true });
  const rnd = random(seed);
  const list: string[] = [];
  for (let i = 0; i < pages; i++) {
    const base = join(out, `p${seed}-${i}`);
    writeFileSync(`${base}.gt`, `${Array.from({ length: LINES_PER_PAGE }, () => catalogueLine(words, rnd)).join('\n')}\n`);
    const pt = [7, 8, 8, 9][Math.floor(rnd() * 4)];
    execFileSync(
      'text2image',
      [
        `--text=${base}.gt`,
        `--outputbase=${base}`,
        `--font=${FONTS[i % FONTS.length]}`,
        '--fonts_dir=/usr/share/fonts',
        `--fontconfig_tmpdir=${out}`, // its fonts.conf, else written into the working directory
        `--ptsize=${pt}`,
        '--xsize=2200',
        '--ysize=1400',
        '--resolution=300',
        '--margin=60',
        '--leading=16',
      ],
      { stdio: 'ignore' },
    );
    const { width = 0, height = 0 } = await sharp(`${base}.tif`).metadata();
    const scale = (150 + Math.floor(rnd() * 21)) / 300;
    const photo = await sharp(`${base}.tif`)
      .greyscale()
      .resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'cubic' })
      .blur(0.9 + rnd() * 0.7)
      .linear(0.5 + rnd() * 0.2, 90 + rnd() * 30)
      .jpeg({ quality: 60 + Math.floor(rnd() * 9) })
      .toBuffer();
    const back = await sharp(photo).resize(width, height, { kernel: 'lanczos3' }).greyscale().raw().toBuffer();
    const sharp300 = await deblur({ data: new Uint8Array(back), width, height }, 1.5);
    const sorted = Float64Array.from(sharp300.data).sort();
    const paper = 0.88 * sorted[Math.floor(sorted.length * 0.9)];
    const page = Buffer.from(sharp300.data.map((v) => Math.min(255, Math.round((v * 255) / paper))));
    await sharp(page, { raw: { width, height, channels: 1 } })
      .tiff()
      .toFile(`${base}.tif`);
    execFileSync(
      'tesseract',
      [`${base}.tif`, base, '--tessdata-dir', tessdata, '-l', lang, '--psm', '6', '/usr/share/tesseract-ocr/5/tessdata/configs/lstm.train'],
      {
        stdio: 'ignore',
      },
    );
    list.push(`${base}.lstmf`);
  }
  writeFileSync(join(out, `list-${seed}.txt`), `${list.join('\n')}\n`);
  return list;
}
