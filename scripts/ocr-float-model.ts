/**
 * `npx tsx --conditions=source scripts/ocr-float-model.ts [--lang rus] [--out DIR] [--name rusf]`: writes a float
 * copy of an installed Tesseract model (`DIR/<name>.traineddata` and its components, `DIR/<name>.lstm` among them)
 * for fine-tuning with `lstmtraining --continue_from DIR/<name>.lstm --traineddata DIR/<name>.traineddata`.
 * See packages/recognition-api/src/engine/ocr/training/float-model.ts. A training tool, not used by the service.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFloatTraineddata } from '../packages/recognition-api/src/engine/ocr/training/float-traineddata.js';

const { values } = parseArgs({
  options: {
    lang: { type: 'string', default: 'rus' },
    tessdata: { type: 'string', default: '/usr/share/tesseract-ocr/5/tessdata' },
    out: { type: 'string', default: 'data/ocr-training' },
    name: { type: 'string' },
  },
});
const out = resolve(values.out!);
await mkdir(out, { recursive: true });
const name = values.name ?? `${values.lang}f`;
const summary = await writeFloatTraineddata(values.lang!, values.tessdata!, out, name);
console.log(summary.layers.join('\n'));
console.log(`${summary.intMatrices} of ${summary.matrices} weight matrices were int8; ${summary.weights} weights; spec ${summary.spec}`);
console.log(`written: ${out}/${name}.traineddata (and ${name}.lstm for lstmtraining --continue_from)`);
