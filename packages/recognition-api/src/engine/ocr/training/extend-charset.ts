import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Characters printed in Russian item names that Debian's `rus` model has no output for: the Latin capitals without
 * a Cyrillic twin (the twins A B C E H K M O P T X Y are read as Cyrillic and turned Latin by `extract/script.ts`),
 * the diameter sign and the superscript two of "м²". docs/recognition-photo.md "Session 2026-11-30 (5)".
 */
export const ADDED_CHARACTERS = [...'DFGIJLNQRSUVWZ', 'Ø', '²'];

/** The characters of a Tesseract unicharset file, in file order, without the special entries (NULL, Joined, Broken). */
export function unicharsetCharacters(text: string): string[] {
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.split(' ')[0])
    .filter((ch) => ch && ch !== 'NULL' && ch !== 'Joined' && ch !== '|Broken|0|1');
}

/**
 * Writes `<outDir>/<name>/<name>.traineddata`: a starter model whose unicharset is the float copy's
 * (`<floatDir>/<floatName>.lstm-unicharset`) plus `added`, whose recoder is computed for it, and whose word, punctuation
 * and number lists are the float copy's (read back with `dawg2wordlist`). It holds no network: `lstmtraining
 * --continue_from <float>.lstm --old_traineddata <float>.traineddata --traineddata <starter>` keeps every trained
 * output of the old model, matched by character, and starts one for each added character. Uses Debian's
 * `unicharset_extractor`, `combine_lang_model` and `dawg2wordlist` (package `tesseract-ocr`). Returns the path of the
 * starter and the size of its unicharset.
 * @throws the tool's error when one of them fails (no float copy in `floatDir`, a full disk).
 */
export async function writeExtendedStarter(
  floatDir: string,
  floatName: string,
  added: readonly string[],
  outDir: string,
  name: string,
): Promise<{ traineddata: string; characters: number }> {
  const work = await mkdtemp(join(tmpdir(), 'starter-'));
  try {
    const base = join(floatDir, floatName);
    const old = unicharsetCharacters(await readFile(`${base}.lstm-unicharset`, 'utf8'));
    const characters = [...old, ...added.filter((ch) => !old.includes(ch))];
    await writeFile(join(work, 'chars.txt'), `${characters.join(' ')}\n`);
    await run('unicharset_extractor', ['--output_unicharset', join(work, 'unicharset'), '--norm_mode', '1', join(work, 'chars.txt')]);
    const lists: string[] = [];
    for (const kind of ['word', 'punc', 'number']) {
      const list = join(work, `${kind}.txt`);
      await run('dawg2wordlist', [`${base}.lstm-unicharset`, `${base}.lstm-${kind}-dawg`, list]);
      lists.push(`--${kind === 'word' ? 'words' : kind === 'punc' ? 'puncs' : 'numbers'}`, list);
    }
    // combine_lang_model reads a radical table even for scripts without radicals; one comment line is a valid empty one.
    const script = join(work, 'script');
    await mkdir(script);
    await writeFile(join(script, 'radical-stroke.txt'), '# no Han characters\n');
    await run(
      'combine_lang_model',
      ['--input_unicharset', join(work, 'unicharset'), '--script_dir', script, ...lists, '--lang', name, '--output_dir', outDir],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    return { traineddata: join(outDir, name, `${name}.traineddata`), characters: characters.length };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
