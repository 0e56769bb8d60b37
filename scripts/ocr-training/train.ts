/**
 * Fine-tunes the installed `rus` recogniser on photographed form type (docs/recognition-photo.md "Session
 * 2026-11-30 (4)" and "(5)"):
 * `npx tsx --conditions=source scripts/ocr-training/train.ts [--out data/ocr-training] [--seeds 1,2] [--pages 50]
 * [--iterations 3000] [--name rus_photo] [--int] [--eval-seed 99] [--eval-pages 8]`
 * 1. a float copy of the installed model (`ocr/training/float-traineddata.ts`), the integer one cannot be trained;
 * 2. a starter with its unicharset extended by the characters it lacks (`ocr/training/extend-charset.ts`);
 * 3. its word list (`dawg2wordlist`) as the words of the training lines;
 * 4. training pages per seed (`corpus.ts`), seeds apart from the held-out one;
 * 5. `lstmtraining --continue_from --old_traineddata` for the iterations asked (a new output per added
 *    character), then `--stop_training` (with `--int`, `--convert_to_int`) into `<out>/<name>.traineddata`;
 * 6. `lstmeval` of the installed model's float copy and of the result on held-out pages (`--eval-seed`), printed.
 * A training tool: the service does not run it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFloatTraineddata } from '../../packages/recognition-api/src/engine/ocr/training/float-traineddata.js';
import { writeCorpus } from '../../packages/recognition-api/src/engine/ocr/training/corpus.js';
import { ADDED_CHARACTERS, writeExtendedStarter } from '../../packages/recognition-api/src/engine/ocr/training/extend-charset.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'data/ocr-training' },
    seeds: { type: 'string', default: '1,2' },
    pages: { type: 'string', default: '50' },
    iterations: { type: 'string', default: '3000' },
    name: { type: 'string', default: 'rus_photo' },
    tessdata: { type: 'string', default: '/usr/share/tesseract-ocr/5/tessdata' },
    int: { type: 'boolean', default: false },
    'eval-seed': { type: 'string', default: '99' },
    'eval-pages': { type: 'string', default: '8' },
  },
});
const out = resolve(values.out!);
const model = join(out, 'model');
mkdirSync(model, { recursive: true });
const summary = await writeFloatTraineddata('rus', values.tessdata!, model, 'rusf');
console.log(`float model: ${summary.matrices} matrices, ${summary.weights} weights`);
const starter = await writeExtendedStarter(model, 'rusf', ADDED_CHARACTERS, model, 'rusx');
console.log(`starter: ${starter.characters} characters (${ADDED_CHARACTERS.join('')} added)`);

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
const held = await writeCorpus(join(out, 'held-out'), Number(values['eval-pages']), Number(values['eval-seed']), words, model, 'rusf');
const heldList = join(out, 'held-out-list.txt');
writeFileSync(heldList, `${held.join('\n')}\n`);
const listFile = join(out, 'train-list.txt');
writeFileSync(listFile, `${lists.join('\n')}\n`);

const checkpoints = join(out, 'checkpoints');
mkdirSync(checkpoints, { recursive: true });
const lstmtraining = (args: string[]) => execFileSync('lstmtraining', args, { stdio: ['ignore', 'ignore', 'inherit'] });
lstmtraining([
  '--continue_from',
  join(model, 'rusf.lstm'),
  '--old_traineddata',
  join(model, 'rusf.traineddata'),
  '--traineddata',
  starter.traineddata,
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
  starter.traineddata,
  '--model_output',
  traineddata,
]);
console.log(`written: ${traineddata}`);
// lstmeval prints "BCER eval=x, BWER eval=y" (character and word error rates, %) last, on stderr.
const rate = (model: string) => {
  const r = spawnSync('lstmeval', ['--model', model, '--eval_listfile', heldList], { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`.match(/BCER eval=[^\n]*/)?.[0] ?? `lstmeval failed (${r.status})`;
};
console.log(`held-out pages (seed ${values['eval-seed']}): installed ${rate(join(model, 'rusf.traineddata'))}`);
console.log(`held-out pages (seed ${values['eval-seed']}): trained ${rate(traineddata)}`);
