import { existsSync } from 'node:fs';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageRetention } from '../src/documents/image-retention.js';
import { DocumentsRepo } from '../src/documents/documents.repo.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeData, pngPage, recognizeForm } from './fixtures.js';
import { makeHarness, type Harness } from './harness.js';

const DAY = 86_400_000;
let h: Harness;
beforeAll(async () => {
  h = await makeHarness();
});
afterAll(async () => h.close());

const upload = async () => {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': h.keyA },
    payload: recognizeForm([await pngPage(), await pngPage()], { priority: 'normal' }),
  });
  expect(res.statusCode).toBe(202);
  return res.json().id as string;
};
const work = () => runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock });
const get = (url: string) => h.app.inject({ method: 'GET', url, headers: { 'x-api-key': h.keyA } });

describe('Image retention', () => {
  it('deletes the page images of documents finished more than 30 days ago; the data stays; queued ones are kept', async () => {
    h.engine.data = makeData();
    const old = await upload();
    expect(await work()).toBe(true);
    h.clock.advance(10 * DAY);
    const recent = await upload();
    expect(await work()).toBe(true);
    const queued = await upload();
    h.clock.advance(20 * DAY + 1); // `old` finished 30 days + 1 ms ago, `recent` 20 days ago
    const logs: [string, object][] = [];
    const registry = new Registry();
    const retention = new ImageRetention({
      docs: new DocumentsRepo(h.db),
      files: h.files,
      clock: h.clock,
      registry,
      days: 30,
      log: (m, e) => logs.push([m, e]),
      batchSize: 1,
    });

    expect(await retention.runOnce()).toBe(1);
    expect(existsSync(h.files.documentDir(old))).toBe(false);
    expect(existsSync(h.files.documentDir(recent))).toBe(true);
    expect(existsSync(h.files.documentDir(queued))).toBe(true);
    expect((await get(`/api/v1/documents/${old}`)).json()).toMatchObject({ id: old, status: 'completed', data: makeData() });
    expect((await get(`/api/v1/documents/${old}/export?format=json`)).statusCode).toBe(200);
    expect((await registry.getSingleMetric('recognition_images_purged_total')!.get()).values[0].value).toBe(1);
    expect(logs).toEqual([['image retention purge', { documents: 1, finishedBefore: new Date(h.clock.now().getTime() - 30 * DAY).toISOString() }]]);

    // The admin panel's page view says the image is gone instead of failing.
    await expect(h.services.admin.documents.page(old, 1)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('удалено по сроку хранения'),
    });
    expect((await h.services.admin.documents.page(recent, 1)).type).toBe('image/png');

    expect(await retention.runOnce()).toBe(0); // marked: not handled twice
    expect(logs).toHaveLength(1);
    h.clock.advance(10 * DAY);
    expect(await retention.runOnce()).toBe(1); // now `recent` too
  });

  it('the app counts purges at /metrics without an API key', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('recognition_images_purged_total');
  });
});
