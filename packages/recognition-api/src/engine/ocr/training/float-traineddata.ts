import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readLstm, type LstmSummary } from './float-model.js';

const run = promisify(execFile);

/**
 * Writes `<outDir>/<name>.traineddata`: the installed `<lang>.traineddata` (from `tessdataDir`) with its LSTM
 * network turned float ({@link readLstm}) and every other component (word lists, unicharset, recoder) as it was.
 * Tesseract reads with it as with the original, and `lstmtraining --continue_from <outDir>/<name>.lstm` fine-tunes
 * it. Uses Debian's `combine_tessdata` (package `tesseract-ocr`). Returns the summary of the converted network.
 * @throws LstmFormatError when the network is in a layout the reader does not know; the tool's error when
 *   `combine_tessdata` fails (a missing model, no such directory).
 */
export async function writeFloatTraineddata(lang: string, tessdataDir: string, outDir: string, name: string): Promise<LstmSummary> {
  const work = await mkdtemp(join(tmpdir(), 'float-model-'));
  try {
    await run('combine_tessdata', ['-u', join(tessdataDir, `${lang}.traineddata`), join(work, `${lang}.`)]);
    const { summary, output } = readLstm(await readFile(join(work, `${lang}.lstm`)), true);
    for (const file of await readdir(work)) {
      const component = file.slice(lang.length + 1);
      if (component === 'lstm') await writeFile(join(outDir, `${name}.lstm`), output!);
      else await copyFile(join(work, file), join(outDir, `${name}.${component}`));
    }
    await run('combine_tessdata', [join(outDir, `${name}.`)]);
    return summary;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
