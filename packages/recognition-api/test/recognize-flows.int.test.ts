import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { encode as encodeBmp } from 'bmp-ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RecognitionFailedError } from '../src/engine/engine.port.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeHarness, type Harness } from './harness.js';
import { makeData, pngPage, recognizeForm } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await makeHarness({ syncBudgetMs: 200 });
  // One high request first, whatever it answers: it starts the pool's worker threads, whose cold start on a busy
  // machine can exceed the 200 ms budget that the tests below measure against.
  await post({ priority: 'high', document_type: 'auto' });
});
afterAll(async () => h.close());
beforeEach(async () => {
  h.engine.fail = null;
  h.engine.gate = null;
  h.engine.data = makeData();
  h.engine.calls = [];
  await h.db.query('DELETE FROM callbacks');
  await h.db.query('DELETE FROM documents');
});

const post = async (fields: Record<string, string>, files?: Buffer[], key = h.keyA) =>
  h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': key },
    payload: recognizeForm(files ?? [await pngPage()], fields),
  });
const get = (url: string, key = h.keyA) => h.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
const work = () => runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock });

describe('priority=high answers synchronously', () => {
  it('200 with the result, confidence and warnings', async () => {
    const res = await post({ priority: 'high', document_type: 'auto', client_ref: 'inv-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'completed', document_type: 'upd', confidence: 1, warnings: [], data: makeData() });
    expect(body.id).toMatch(/^doc_[a-z0-9]{20}$/);
    expect(body.export).toBeUndefined();
    const doc = (await get(`/api/v1/documents/${body.id}`)).json();
    expect(doc).toMatchObject({ id: body.id, status: 'completed', client_ref: 'inv-1', confidence: 1 });
  });

  it('output_format=accounting adds `export` in accounting form', async () => {
    const res = await post({ priority: 'high', output_format: 'accounting' });
    expect(res.json().export).toMatchObject({
      accounting_version: '1.0',
      counterparty: { role: 'seller', inn: '7707083893' },
      totals: { currency: 'RUB' },
    });
  });

  it('422 RECOGNITION_FAILED when the engine fails; the document is failed', async () => {
    h.engine.fail = new RecognitionFailedError('no_document', 'blank page with internal detail');
    const res = await post({ priority: 'high' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toEqual({ code: 'RECOGNITION_FAILED', message: 'no_document: no document was found on the images' });
    expect((await get(`/api/v1/documents/${res.json().id}`)).json()).toMatchObject({ status: 'failed', error: { code: 'RECOGNITION_FAILED' } });
  });

  it('422 RECOGNITION_TIMEOUT when the budget runs out', async () => {
    h.engine.gate = new Promise(() => {});
    const res = await post({ priority: 'high' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('RECOGNITION_TIMEOUT');
    expect(res.json().error.message).toMatch(/^timeout:/);
  });

  it('an unexpected engine error is a clean failure, never a 500', async () => {
    h.engine.fail = new Error('segfault at 0xdeadbeef');
    const res = await post({ priority: 'high' });
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toContain('deadbeef');
  });

  it('a page with no document completes with low confidence and warnings', async () => {
    h.engine.data = {
      document: { number: null, date: null },
      seller: { name: null, inn: null, kpp: null },
      buyer: { name: null, inn: null, kpp: null },
      items: [],
      totals: { amount_without_nds: null, nds_amount: null, amount_with_nds: null },
    };
    const res = await post({ priority: 'high' });
    expect(res.statusCode).toBe(200);
    // 5 warnings (−0.25) and 3 empty critical fields (−0.30)
    expect(res.json().confidence).toBe(0.45);
    expect(res.json().warnings).toHaveLength(5);
  });
});

describe('priority=normal and batch go through the durable queue', () => {
  it('normal: 202 with poll_url, short form while queued, completed by a worker', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(202);
    const { id, poll_url } = res.json();
    expect(res.json()).toEqual({ id, status: 'queued', poll_url: `/api/v1/documents/${id}` });
    expect(Object.keys((await get(poll_url)).json()).sort()).toEqual(['client_ref', 'created_at', 'document_type', 'id', 'status']);
    expect(await work()).toBe(true);
    expect(await work()).toBe(false);
    expect((await get(poll_url)).json()).toMatchObject({ status: 'completed', confidence: 1, processing_time_ms: 0 });
  });

  it('batch waits for the quarter-hour tick', async () => {
    h.clock.set('2026-11-23T09:05:00Z');
    const { id } = (await post({ priority: 'batch' })).json();
    expect(await work()).toBe(false);
    h.clock.set('2026-11-23T09:14:59.999Z');
    expect(await work()).toBe(false);
    h.clock.set('2026-11-23T09:15:00Z');
    expect(await work()).toBe(true);
    expect((await get(`/api/v1/documents/${id}`)).json().status).toBe('completed');
  });

  it('a worker that died leaves a lease that expires; the document is then processed (restart loses nothing)', async () => {
    h.clock.set('2026-11-23T10:00:00Z');
    const { id } = (await post({})).json();
    const claimed = await h.services.queue.claim(h.clock.now(), 5 * 60_000);
    expect(claimed?.id).toBe(id);
    expect(await work()).toBe(false);
    h.clock.advance(5 * 60_000 + 1);
    expect(await work()).toBe(true);
    expect((await get(`/api/v1/documents/${id}`)).json().status).toBe('completed');
  });

  it('an unavailable engine puts the document back (1 min) and fails it after 3 attempts', async () => {
    h.clock.set('2026-11-23T11:00:00Z');
    h.engine.fail = new RecognitionFailedError('engine_unavailable', 'tesseract missing');
    const { id } = (await post({})).json();
    expect(await work()).toBe(true);
    expect((await get(`/api/v1/documents/${id}`)).json().status).toBe('queued');
    expect(await work()).toBe(false);
    h.clock.advance(60_000);
    expect(await work()).toBe(true);
    h.clock.advance(60_000);
    expect(await work()).toBe(true);
    expect((await get(`/api/v1/documents/${id}`)).json()).toMatchObject({
      status: 'failed',
      error: { message: 'engine_unavailable: the recognition engine is unavailable' },
    });
    expect(h.engine.calls).toHaveLength(3);
  });

  it('an engine that recovers completes the document on the retry', async () => {
    h.clock.set('2026-11-23T12:00:00Z');
    h.engine.fail = new RecognitionFailedError('engine_unavailable', 'down');
    const { id } = (await post({})).json();
    await work();
    h.engine.fail = null;
    h.clock.advance(60_000);
    await work();
    expect((await get(`/api/v1/documents/${id}`)).json().status).toBe('completed');
  });

  it('a renewed lease keeps other workers away', async () => {
    h.clock.set('2026-11-23T13:00:00Z');
    await post({});
    const claim = (await h.services.queue.claim(h.clock.now(), 60_000))!;
    h.clock.advance(50_000);
    expect(await h.services.queue.renew(claim, new Date(h.clock.now().getTime() + 60_000))).toBe(true);
    h.clock.advance(50_000);
    expect(await work()).toBe(false);
    h.clock.advance(10_001);
    expect(await work()).toBe(true);
  });

  it('two workers never take the same document (FOR UPDATE SKIP LOCKED)', async () => {
    await post({});
    await post({});
    const [a, b] = await Promise.all([h.services.queue.claim(h.clock.now(), 60_000), h.services.queue.claim(h.clock.now(), 60_000)]);
    expect(a && b && a.id !== b.id).toBe(true);
    expect(await h.services.queue.claim(h.clock.now(), 60_000)).toBeNull();
  });
});

describe('unexpected failures', () => {
  it('500 INTERNAL_ERROR without internals, nothing left behind', async () => {
    const put = h.files.put;
    h.files.put = async () => {
      throw new Error('EIO: /var/secret/path');
    };
    try {
      const res = await post({});
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'internal error' } });
      expect(await h.db.query('SELECT id FROM documents')).toEqual([]);
    } finally {
      h.files.put = put;
    }
    expect((await post({})).statusCode).toBe(202);
  });
});

describe('image formats are detected from content', () => {
  it('accepts JPEG, WebP, TIFF and BMP (stored as PNG), whatever the file name', async () => {
    const base = await pngPage();
    const raw = await sharp(base).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    // bmp-ts takes ABGR pixels
    const abgr = Buffer.alloc(raw.data.length);
    for (let i = 0; i < raw.data.length; i += 4) {
      abgr[i] = 255;
      abgr[i + 1] = raw.data[i + 2]!;
      abgr[i + 2] = raw.data[i + 1]!;
      abgr[i + 3] = raw.data[i]!;
    }
    const bmp = encodeBmp({ data: abgr, width: raw.info.width, height: raw.info.height, bitPP: 24 }).data;
    const files = [await sharp(base).jpeg().toBuffer(), await sharp(base).webp().toBuffer(), await sharp(base).tiff().toBuffer(), bmp];
    const res = await post({ priority: 'high' }, files);
    expect(res.statusCode).toBe(200);
    const pages = h.engine.calls[0]!.images;
    expect(await Promise.all(pages.map(async (p) => (await sharp(p).metadata()).format))).toEqual(['jpeg', 'webp', 'tiff', 'png']);
    expect((await sharp(pages[3]!).metadata()).width).toBe(64);
  });
});

describe('documents endpoints', () => {
  it('ownership: another key gets 404 on read, export and delete', async () => {
    const { id } = (await post({ priority: 'high' })).json();
    for (const [method, url] of [
      ['GET', `/api/v1/documents/${id}`],
      ['GET', `/api/v1/documents/${id}/export`],
      ['DELETE', `/api/v1/documents/${id}`],
    ] as const) {
      const res = await h.app.inject({ method, url, headers: { 'x-api-key': h.keyB } });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    expect((await get('/api/v1/documents', h.keyB)).json()).toEqual({ data: [], total: 0, limit: 20, offset: 0 });
  });

  it('export: 409 until completed, then json and accounting', async () => {
    const { id } = (await post({})).json();
    const early = await get(`/api/v1/documents/${id}/export`);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('DOCUMENT_NOT_READY');
    await work();
    expect((await get(`/api/v1/documents/${id}/export`)).json()).toEqual(makeData());
    const acc = (await get(`/api/v1/documents/${id}/export?format=accounting`)).json();
    expect(acc).toMatchObject({
      document_id: id,
      document_type: 'upd',
      confidence: 1,
      raw_data: makeData(),
      totals: { amount_with_nds: 359.99, currency: 'RUB' },
    });
    expect(acc.items[1]).toEqual({
      line_number: 2,
      name: 'Ручка',
      product_code: 'A4-500',
      unit_code: '796',
      unit_name: 'шт',
      quantity: 3,
      price: 33.33,
      amount_without_vat: 99.99,
      vat_rate: '20%',
      vat_amount: 20,
      amount_with_vat: 119.99,
    });
    expect((await get(`/api/v1/documents/${id}/export?format=xml`)).json().error.message).toMatch(/^format: /);
  });

  it('delete removes the row and the files', async () => {
    const { id } = (await post({ priority: 'high' })).json();
    expect(existsSync(h.files.documentDir(id))).toBe(true);
    const res = await h.app.inject({ method: 'DELETE', url: `/api/v1/documents/${id}`, headers: { 'x-api-key': h.keyA } });
    expect(res.json()).toEqual({ deleted: true });
    expect(existsSync(h.files.documentDir(id))).toBe(false);
    expect((await get(`/api/v1/documents/${id}`)).statusCode).toBe(404);
  });

  it('list: filters by status, type, from/to, pages with limit/offset', async () => {
    h.clock.set('2026-11-01T10:00:00Z');
    const a = (await post({ priority: 'high', document_type: 'invoice' })).json().id;
    h.clock.set('2026-11-02T10:00:00Z');
    const b = (await post({ document_type: 'torg12' })).json().id;
    h.clock.set('2026-11-03T10:00:00Z');
    const c = (await post({ priority: 'high' })).json().id;
    const ids = async (q: string) => (await get(`/api/v1/documents${q}`)).json().data.map((d: { id: string }) => d.id);
    expect(await ids('')).toEqual([c, b, a]);
    expect(await ids('?status=queued')).toEqual([b]);
    expect(await ids('?type=invoice')).toEqual([a]);
    expect(await ids('?from=2026-11-02&to=2026-11-02')).toEqual([b]);
    expect(await ids('?from=2026-11-02T12:00:00Z')).toEqual([c]);
    const page = (await get('/api/v1/documents?limit=1&offset=1')).json();
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.data.map((d: { id: string }) => d.id)).toEqual([b]);
    for (const [q, param] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?status=done', 'status'],
      ['?from=yesterday', 'from'],
      ['?type=auto', 'type'],
    ]) {
      const res = await get(`/api/v1/documents${q}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.message.startsWith(`${param}: `)).toBe(true);
    }
  });
});
