import { threadId } from 'node:worker_threads';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ImageRejected } from '../src/engine/image-check.js';
import { RecognitionPool } from '../src/engine/pool/recognition-pool.js';
import { pngPage } from './fixtures.js';

const filename = new URL('./support/pool-test-worker.mjs', import.meta.url).href;
const pool = new RecognitionPool({ name: 'test', threads: 1, abortGraceMs: 50, maxHeapMb: 64, filename });
afterAll(async () => pool.close());

describe('RecognitionPool (piscina worker threads)', () => {
  it('checks images on a worker thread, never the main one', async () => {
    const img = await pool.checkImage(await pngPage(200, 100));
    expect([img.format, img.width, img.height]).toEqual(['png', 200, 100]);
    expect(pool.threadIds.size).toBe(1);
    expect(pool.threadIds.has(threadId)).toBe(false);
  });

  it('passes refusals across the thread boundary as ImageRejected with the reason', async () => {
    const bomb = await sharp({ create: { width: 7070, height: 7070, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    await expect(pool.checkImage(bomb)).rejects.toBeInstanceOf(ImageRejected);
    await expect(pool.checkImage(Buffer.alloc(0))).rejects.toThrow(/file is empty/);
  });

  it('an abort answers at once, and a task stuck in a pixel loop has its thread terminated', async () => {
    const ac = new AbortController();
    const stuck = pool.run('spinTask', { ms: 20_000 }, ac.signal);
    const rejected = expect(stuck).rejects.toMatchObject({ reason: 'timeout' });
    ac.abort();
    await rejected;
    // The thread was terminated after the 50 ms grace: the next task runs long before the 20 s loop would end.
    const t0 = Date.now();
    await pool.checkImage(await pngPage());
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('a task above the per-thread memory cap fails alone (engine_error), and the pool keeps working', async () => {
    await expect(pool.run('hogTask', {})).rejects.toMatchObject({ reason: 'engine_error', message: expect.stringMatching(/64 MB memory cap/) });
    const img = await pool.checkImage(await pngPage(30, 20));
    expect(img.width).toBe(30);
  });
});
