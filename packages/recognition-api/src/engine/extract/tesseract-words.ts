import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** A tool that has not answered in this long is taken for missing: the list is a tie-break, not worth a stall. */
const TOOL_TIMEOUT_MS = 30_000;

/** How to reach Tesseract's tools: the `tesseract` binary (for its tessdata folder) and the two tools beside it. */
export interface TesseractTools {
  tesseract?: string;
  combineTessdata?: string;
  dawg2wordlist?: string;
  /** How long each tool may take, ms (default 30 000). */
  timeoutMs?: number;
}

/**
 * The word list of Tesseract's own language model for `lang` (`rus`: the word forms frequent in the web text the
 * model was trained on, about 181 000 once lower-cased), lower case with ё as е; null when the tools or the data are
 * missing or a tool does not answer within `tools.timeoutMs` (30 s). The list is unpacked from the installed
 * `<lang>.traineddata` with the tools the Debian package `tesseract-ocr` ships (`combine_tessdata -e`,
 * `dawg2wordlist`) into a temporary folder, about 0.6 s. It tells a common word form from a rare one that a
 * dictionary knows as well (`крепление` is common, `крепленые` is not), which the spelling of a misread word between
 * two dictionary words needs.
 */
export async function loadTesseractWords(lang = 'rus', tools: TesseractTools = {}): Promise<Set<string> | null> {
  let dir: string | null = null;
  const timeout = tools.timeoutMs ?? TOOL_TIMEOUT_MS;
  try {
    const langs = await run(tools.tesseract ?? 'tesseract', ['--list-langs'], { encoding: 'utf8', timeout });
    // "List of available languages in "/usr/share/tesseract-ocr/5/tessdata/" (3):"
    const folder = /"([^"]+)"/.exec(`${langs.stdout}${langs.stderr}`)?.[1];
    if (!folder) return null;
    dir = await mkdtemp(join(tmpdir(), 'tess-words-'));
    const dawg = join(dir, `${lang}.lstm-word-dawg`);
    const unicharset = join(dir, `${lang}.lstm-unicharset`);
    const list = join(dir, 'words.txt');
    await run(tools.combineTessdata ?? 'combine_tessdata', ['-e', join(folder, `${lang}.traineddata`), dawg, unicharset], { timeout });
    await run(tools.dawg2wordlist ?? 'dawg2wordlist', [unicharset, dawg, list], { timeout });
    const words = new Set<string>();
    for (const line of (await readFile(list, 'utf8')).split('\n')) {
      const word = line.trim();
      if (word) words.add(word.toLowerCase().replace(/ё/g, 'е'));
    }
    return words.size > 0 ? words : null;
  } catch {
    return null;
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}
