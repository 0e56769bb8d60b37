import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';

/** Findings of the fuzz campaign, each with the answer it must now get. */
let prod: Harness;
let demo: Harness;
const resolve = async (host: string) =>
  host === 'metadata.google.internal' ? ['169.254.169.254'] : host === 'localhost' ? ['127.0.0.1'] : ['93.184.216.34'];
beforeAll(async () => {
  prod = await makeHarness({ allowLoopbackCallbacks: false, resolve });
  demo = await makeHarness({ allowLoopbackCallbacks: true, resolve });
});
afterAll(async () => Promise.all([prod.close(), demo.close()]));

const post = (h: Harness, form: FormData) =>
  h.app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': h.keyA }, payload: form });

async function expectNothingStored(h: Harness) {
  expect((await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents'))[0]!.n).toBe(0);
  expect(existsSync(`${h.dir}/files`) ? readdirSync(`${h.dir}/files`) : []).toEqual([]);
}

/** Records every SQL text sent while `fn` runs. */
async function sqlDuring(h: Harness, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = h.db.query.bind(h.db);
  h.db.query = (async (sql: string, params?: unknown[]) => {
    seen.push(sql);
    return original(sql, params);
  }) as typeof h.db.query;
  try {
    await fn();
  } finally {
    h.db.query = original;
  }
  return seen;
}

describe('callback_url SSRF targets', () => {
  const targets = [
    'http://127.0.0.1/h',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/h',
    'http://[::ffff:127.0.0.1]/h',
    'http://0x7f000001/h',
    'http://2130706433/h',
    'http://10.0.0.1/h',
    'http://metadata.google.internal/computeMetadata/v1/',
  ];
  it.each(targets)('%s → 422 callback_url in production, nothing stored', async (url) => {
    const res = await post(prod, recognizeForm([await pngPage()], { callback_url: url }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^callback_url: /) });
    await expectNothingStored(prod);
  });
  const neverLoopback = [
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/h',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://[fe80::1]/h',
    'http://192.168.0.10/h',
  ];
  it.each(neverLoopback)('%s → 422 even under npm start (loopback only)', async (url) => {
    const res = await post(demo, recognizeForm([await pngPage()], { callback_url: url }));
    expect(res.statusCode).toBe(422);
    await expectNothingStored(demo);
  });
  it('npm start accepts its own loopback receiver', async () => {
    const res = await post(demo, recognizeForm([await pngPage()], { callback_url: 'http://127.0.0.1:9/hook' }));
    expect(res.statusCode).toBe(202);
    await demo.db.query('DELETE FROM documents');
  });
});

describe('NUL bytes never reach the database', () => {
  it('client_ref with a NUL → 422 client_ref, nothing stored', async () => {
    const res = await post(prod, recognizeForm([await pngPage()], { client_ref: 'ref\u0000x' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.message).toMatch(/^client_ref: must not contain control characters/);
    await expectNothingStored(prod);
  });
  it('callback_url with a NUL → 422 callback_url', async () => {
    const res = await post(prod, recognizeForm([await pngPage()], { callback_url: 'https://example.com/\u0000' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.message).toMatch(/^callback_url: /);
  });
  it.each([
    ['GET', ''],
    ['DELETE', ''],
    ['GET', '/export'],
  ])('%s /documents/{id with NUL}%s → 404 NOT_FOUND with no documents query', async (method, tail) => {
    let res!: Awaited<ReturnType<typeof prod.app.inject>>;
    const sql = await sqlDuring(prod, async () => {
      res = await prod.app.inject({ method: method as 'GET', url: `/api/v1/documents/doc_abc%00def${tail}`, headers: { 'x-api-key': prod.keyA } });
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect(sql.filter((s) => /documents|callbacks/.test(s))).toEqual([]);
  });
});

describe('protocol errors carry the {error: {code, message}} envelope', () => {
  it('a path parameter over the limit → 414 URI_TOO_LONG', async () => {
    const res = await prod.app.inject({ method: 'GET', url: `/api/v1/documents/doc_${'a'.repeat(300)}`, headers: { 'x-api-key': prod.keyA } });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ error: { code: 'URI_TOO_LONG', message: 'the request path is too long' } });
  });
  it('headers over 16 KB → 431 HEADERS_TOO_LARGE over real HTTP', async () => {
    const url = new URL(await prod.app.listen({ port: 0, host: '127.0.0.1' }));
    const { status, body } = await new Promise<{ status: number; body: string }>((done, fail) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: '/api/v1/health', headers: { 'x-padding': 'x'.repeat(20_000) } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => done({ status: res.statusCode!, body }));
      });
      req.on('error', fail);
      req.end();
    });
    expect(status).toBe(431);
    expect(JSON.parse(body)).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: 'request line and headers together exceed 16 KB' } });
  });
});

describe('hostile images → 422 naming the problem, nothing stored', () => {
  const cases: [string, () => Promise<Buffer>, RegExp][] = [
    [
      'a 7070×7070 one-colour PNG (146 KB, 150 MB decoded)',
      () =>
        sharp({ create: { width: 7070, height: 7070, channels: 3, background: '#3060a0' } })
          .png()
          .toBuffer(),
      /decompression bomb: 7070×7070 pixels of a single colour/,
    ],
    [
      'a 30000×10 PNG (huge side)',
      () =>
        sharp({ create: { width: 30_000, height: 10, channels: 3, background: '#000' } })
          .png()
          .toBuffer(),
      /a side longer than 20000/,
    ],
    ['a zero-byte file', async () => Buffer.alloc(0), /file is empty/],
    [
      'a truncated PNG',
      async () => {
        const p = await sharp({ create: { width: 900, height: 900, channels: 3, background: '#fff' } })
          .composite([{ input: await pngPage(400, 300) }])
          .png()
          .toBuffer();
        return p.subarray(0, p.length - 200);
      },
      /PNG image is corrupt or truncated/,
    ],
  ];
  it.each(cases)('%s', async (_name, make, message) => {
    const res = await post(prod, recognizeForm([await make()], { priority: 'high' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(message) });
    expect(res.json().error.message).toMatch(/^images\[0\]: /);
    await expectNothingStored(prod);
  });
});
