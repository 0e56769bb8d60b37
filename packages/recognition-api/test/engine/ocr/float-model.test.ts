import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LstmFormatError, readLstm } from '../../../src/engine/ocr/training/float-model.js';
import { writeFloatTraineddata } from '../../../src/engine/ocr/training/float-traineddata.js';

const run = promisify(execFile);
const TESSDATA = '/usr/share/tesseract-ocr/5/tessdata';
/** Made-up goods: none of them is a development-set name. */
const LINES = ['Вилка кабельная прямая 16А 3х1,5 мм', 'Лента клейкая упаковочная 48 мм х 66 м'];

describe('the installed integer rus model turned float for fine-tuning', () => {
  let dir = '';
  let intLstm: Buffer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'float-model-test-'));
    await run('combine_tessdata', ['-u', join(TESSDATA, 'rus.traineddata'), join(dir, 'rus.')]);
    intLstm = await readFile(join(dir, 'rus.lstm'));
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads every layer of the network and turns each int8 matrix float, nothing else', () => {
    const before = readLstm(intLstm).summary;
    expect(before.intMode).toBe(true);
    expect(before.matrices).toBeGreaterThan(5);
    expect(before.intMatrices).toBe(before.matrices);
    expect(before.layers[0]).toMatch(/^Series/);
    expect(before.spec).toMatch(/^\[1,36,/);
    const { summary, output } = readLstm(intLstm, true);
    expect(summary).toEqual(before); // the walk reports the input
    const after = readLstm(output!).summary;
    expect(after.intMode).toBe(false);
    expect(after.intMatrices).toBe(0);
    expect(after).toMatchObject({ layers: before.layers, matrices: before.matrices, weights: before.weights, spec: before.spec });
    // Each int8 weight (1 byte) became a double (8 bytes); the scales (8 bytes a row, padded) and counts went.
    expect(output!.length).toBeGreaterThan(intLstm.length + 6 * before.weights);
    expect(output!.length).toBeLessThan(intLstm.length + 7 * before.weights);
  });

  it('refuses a component it cannot walk with a clear error, not a crash', () => {
    expect(() => readLstm(intLstm.subarray(0, 1000))).toThrow(LstmFormatError);
    const unknown = Buffer.from(intLstm);
    unknown.writeUInt8(40, 0); // no such layer type
    expect(() => readLstm(unknown)).toThrow(/not supported/);
  });

  it('reads a line as the integer model does, and lstmtraining continues from it where it refuses the original', async () => {
    const summary = await writeFloatTraineddata('rus', TESSDATA, dir, 'rusf');
    expect(summary.intMatrices).toBe(summary.matrices);
    expect(existsSync(join(dir, 'rusf.traineddata'))).toBe(true);
    await writeFile(join(dir, 'lines.txt'), `${LINES.join('\n')}\n`);
    await run('text2image', [
      `--text=${join(dir, 'lines.txt')}`,
      `--outputbase=${join(dir, 'line')}`,
      '--font=DejaVu Sans',
      '--fonts_dir=/usr/share/fonts',
      `--fontconfig_tmpdir=${dir}`,
      '--ptsize=12',
      '--xsize=2400',
      '--ysize=400',
      '--resolution=300',
    ]);
    const image = join(dir, 'line.tif');
    const read = async (lang: string, tessdata: string) =>
      (await run('tesseract', [image, 'stdout', '--tessdata-dir', tessdata, '-l', lang, '--psm', '6'])).stdout.trim();
    const original = await read('rus', TESSDATA);
    expect(original).toContain('клейкая');
    expect(await read('rusf', dir)).toBe(original);

    // A training sample of the rendered lines, then one iteration from each model.
    await run('tesseract', [image, join(dir, 'line'), '--tessdata-dir', dir, '-l', 'rusf', '--psm', '6', join(TESSDATA, 'configs/lstm.train')]);
    await writeFile(join(dir, 'list.txt'), `${join(dir, 'line.lstmf')}\n`);
    const train = (from: string) =>
      run('lstmtraining', [
        '--continue_from',
        from,
        '--traineddata',
        join(dir, 'rusf.traineddata'),
        '--model_output',
        join(dir, 'tuned'),
        '--train_listfile',
        join(dir, 'list.txt'),
        '--max_iterations',
        '1',
      ]);
    await expect(train(join(dir, 'rus.lstm'))).rejects.toThrow(/integer \(fast\) model/);
    await train(join(dir, 'rusf.lstm'));
    expect((await readdir(dir)).some((f) => f.startsWith('tuned') && f.endsWith('checkpoint'))).toBe(true);
  }, 120_000);
});
