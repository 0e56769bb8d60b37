/**
 * Fine-tunes the installed `rus` recogniser on photographed form type (docs/recognition-photo.md "Session
 * 2026-11-30 (4)"):
 * `npx tsx --conditions=source scripts/ocr-training/train.ts [--out data/ocr-training] [--seeds 1,2] [--pages 50]
 * [--iterations 3000] [--name rus_photo] [--int]`
 * 1. a float copy of the installed model (`ocr/training/float-traineddata.ts`), the integer one cannot be trained;
 * 2. its word list (`dawg2wordlist`) as the words of the training lines;
 * 3. training pages per seed (`corpus.ts`), seeds apart from any used to report;
 * 4. `lstmtraining --continue_from` for the iterations asked, then `--stop_training` (with `--int`,
 *    `--convert_to_int`) into `<out>/<name>.traineddata`.
 * A training tool: the service does not run it. Lines holding a character the `rus` model has no output for (most
 * Latin capitals, `²`) are skipped by lstmtraining ("Can't encode transcription"); teaching it new characters needs
 * a new output layer, not done here.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFloatTraineddata } from '../../packages/recognition-api/src/engine/ocr/training/float-traineddata.js';
import { writeCorpus } from '../../packages/recognition-api/src/engine/ocr/training/corpus.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'data/ocr-training' },
    seeds: { type: 'string', default: '1,2' },
    pages: { type: 'string', default: '50' },
    iterations: { type: 'string', default: '3000' },
    name: { type: 'string', default: 'rus_photo' },
    tessdata: { type: 'string', default: '/usr/share/tesseract-ocr/5/tessdata' },
    int: { type: 'boolean', default: false },
  },
});
const out = resolve(values.out!);
const model = join(out, 'model');
mkdirSync(model, { recursive: true });
const summary = await writeFloatTraineddata('rus', values.tessdata!, model, 'rusf');
console.log(`float model: ${summary.matrices} matrices, ${summary.weights} weights`);

execFileSync('dawg2wordlist', [join(model, 'rusf.lstm-unicharset'), join(model, 'rusf.lstm-word-dawg'), join(model, 'words.txt')], {
  stdio: 'ignore',
});
const words = readFileSync(join(model, 'words.txt'), 'utf8')
  .split('\n')
  .filter((w) => /^[а-яё]{3,}$/.test(w));

const lists: string[] = [];
for (const seed of values.seeds!.split(',').map(Number)) {
  lists.push(...(await writeCorpus(join(out, 'corpus'), Number(values.pages), seed, words, model, 'rusf')));
  console.log(`corpus seed ${seed}: ${values.pages} pages`);
}
const listFile = join(out, 'train-list.txt');
writeFileSync(listFile, `${lists.join('\n')}\n`);

const checkpoints = join(out, 'checkpoints');
mkdirSync(checkpoints, { recursive: true });
const lstmtraining = (args: string[]) => execFileSync('lstmtraining', args, { stdio: ['ignore', 'ignore', 'inherit'] });
lstmtraining([
  '--continue_from',
  join(model, 'rusf.lstm'),
  '--traineddata',
  join(model, 'rusf.traineddata'),
  '--model_output',
  join(checkpoints, 't'),
  '--train_listfile',
  listFile,
  '--max_iterations',
  values.iterations!,
]);
const traineddata = join(out, `${values.name}.traineddata`);
lstmtraining([
  '--stop_training',
  ...(values.int ? ['--convert_to_int'] : []),
  '--continue_from',
  join(checkpoints, 't_checkpoint'),
  '--traineddata',
  join(model, 'rusf.traineddata'),
  '--model_output',
  traineddata,
]);
console.log(`written: ${traineddata}`);
