import { threadId } from 'node:worker_threads';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { photoOnTable, Rng } from '@app/docgen';
import { RecognitionPool } from '../src/engine/pool/recognition-pool.js';
import { loadRecognitionConfig } from '../src/config.js';
import { serviceOptionsFromConfig } from '../src/entry-options.js';
import { tesseractProbe } from '../src/engine/pool/pooled-engine.js';

const filename = new URL('./support/pool-test-worker.mjs', import.meta.url).href;
const pools: RecognitionPool[] = [];
const make = (o: Partial<ConstructorParameters<typeof RecognitionPool>[0]> = {}) => {
  const p = new RecognitionPool({ name: 'test', threads: 1, filename, ...o });
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

/** A printed A4 landscape page at 300 DPI (text-like bars), photographed on a desk by docgen's photo-on-table step. */
async function sheetPhoto(): Promise<Buffer> {
  const bars = Array.from(
    { length: 30 },
    (_, i) => `<rect x="200" y="${150 + i * 70}" width="${1500 + ((i * 97) % 1500)}" height="22" fill="#222"/>`,
  );
  const page = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="3508" height="2480"><rect width="100%" height="100%" fill="white"/>${bars.join('')}</svg>`,
    ),
  )
    .png()
    .toBuffer();
  return (await photoOnTable(page, new Rng(9))).jpeg;
}

describe('RecognitionPool: OpenCV in a pool thread, OCR languages', () => {
  // The sheet-outline step loads OpenCV.js (WebAssembly) in the thread and warps a ~2000 px photo to 3508×2480:
  // it must fit under the default heap cap of RECOGNITION_TASK_MEMORY_MB (768) rather than be killed by it.
  it('finds and flattens the sheet of a photo-table image on a pool thread under the 768 MB heap cap', async () => {
    const pool = make({ maxHeapMb: 768 });
    const res = await pool.run<{ flattened: boolean; width: number; height: number; heapMb: number }>('prepareTask', {
      bytes: await sheetPhoto(),
      quality: 'photo',
    });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.threadId).not.toBe(threadId);
    expect(res.value).toMatchObject({ flattened: true, width: 3508, height: 2480 });
    expect(res.value.heapMb).toBeLessThan(768);
  }, 180_000);

  it('passes the OCR languages to the thread: RECOGNITION_OCR_LANGUAGES reaches the pools through the service options', async () => {
    const input = { images: [Buffer.from('x')], documentType: 'auto' as const, imageQuality: 'scan' as const };
    const options = serviceOptionsFromConfig(loadRecognitionConfig({ RECOGNITION_OCR_LANGUAGES: 'rus+eng' }));
    expect(options.ocrLanguages).toBe('rus+eng');
    expect(await make({ languages: options.ocrLanguages }).recognize(input)).toMatchObject({ languages: 'rus+eng' });
    expect(await make().recognize(input)).toMatchObject({ languages: null });
  }, 60_000);

  it('health needs every configured language installed in Tesseract (a missing one makes the engine unavailable)', async () => {
    expect(await tesseractProbe('rus')()).toBe('ok');
    expect(await tesseractProbe('rus+xx_missing')()).toBe('unavailable');
  }, 30_000);
});
