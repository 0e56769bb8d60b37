import { readdirSync, existsSync } from 'node:fs';
import { deflateSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../src/engine/image-check.js';
import { makeHarness, type Harness } from './harness.js';
import { jpegPage, pngPage, recognizeForm } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await makeHarness({ allowLoopbackCallbacks: false, resolve: async (host) => (host === 'intranet.example' ? ['10.0.0.7'] : ['93.184.216.34']) });
});
afterAll(async () => h.close());

async function post(form: FormData) {
  return h.app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': h.keyA }, payload: form });
}

/** Nothing stored: no document rows and no files. */
async function expectNothingStored() {
  const rows = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents');
  expect(rows[0]!.n).toBe(0);
  const dir = `${h.dir}/files`;
  expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
}

/** A PNG whose header declares 100 000 × 100 000 pixels over a tiny compressed body: a decompression bomb. */
function bombPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const idat = deflateSync(Buffer.alloc(1_000_000));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('POST /api/v1/recognize refuses bad input with 422 VALIDATION_ERROR and stores nothing', () => {
  const cases: [string, () => Promise<FormData>, RegExp][] = [
    ['zero files', async () => recognizeForm([]), /^images\[\]: at least one image/],
    ['six files', async () => recognizeForm(await Promise.all(Array.from({ length: 6 }, () => pngPage()))), /^images\[\]: at most 5 files/],
    [
      'a file of 10 MB + 1 byte',
      async () => recognizeForm([Buffer.alloc(MAX_IMAGE_BYTES + 1, 1)]),
      /^images\[\]: each file must be at most 10 MB \(10485760 bytes\)/,
    ],
    [
      'a text file named .jpg',
      async () => recognizeForm([Buffer.from('hello, I am not an image')], {}, ['scan.jpg']),
      /^images\[0\]: "scan.jpg": not a JPEG, PNG, WebP, TIFF or BMP image/,
    ],
    [
      'a truncated JPEG',
      async () => {
        const j = await jpegPage(300, 200);
        return recognizeForm([j.subarray(0, j.length >> 1)]);
      },
      /^images\[0\]: .*JPEG image is corrupt or truncated/,
    ],
    ['a decompression-bomb PNG', async () => recognizeForm([bombPng()]), /^images\[0\]: .*100000×100000 pixels, more than 50000000 allowed/],
    [
      'an unknown document_type',
      async () => recognizeForm([await pngPage()], { document_type: 'passport' }),
      /^document_type: must be one of upd, torg12, invoice, auto/,
    ],
    ['a missing image_quality', async () => recognizeForm([await pngPage()], { image_quality: '' }), /^image_quality: is required/],
    ['an unknown priority', async () => recognizeForm([await pngPage()], { priority: 'urgent' }), /^priority: must be one of high, normal, batch/],
    [
      'a 501-character callback_url',
      async () => recognizeForm([await pngPage()], { callback_url: `https://example.com/${'a'.repeat(481)}` }),
      /^callback_url: /,
    ],
    [
      'a callback_url on a loopback address',
      async () => recognizeForm([await pngPage()], { callback_url: 'http://127.0.0.1:9/hook' }),
      /^callback_url: points at a private, loopback or link-local address/,
    ],
    [
      'a callback_url whose host resolves to a private address',
      async () => recognizeForm([await pngPage()], { callback_url: 'http://intranet.example/hook' }),
      /^callback_url: points at a private/,
    ],
    ['a 256-character client_ref', async () => recognizeForm([await pngPage()], { client_ref: 'я'.repeat(256) }), /^client_ref: /],
    ['an unknown field', async () => recognizeForm([await pngPage()], { api_key: 'x' }), /^api_key: is not a parameter/],
  ];
  for (const [name, form, message] of cases) {
    it(name, async () => {
      const res = await post(await form());
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).toMatch(message);
      await expectNothingStored();
    });
  }

  it('a non-multipart body names images[]', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': h.keyA }, payload: { document_type: 'upd' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.message).toMatch(/^images\[\]: /);
  });

  it('a 500-character callback_url and 255-character client_ref are accepted, and the service keeps serving', async () => {
    const res = await post(recognizeForm([await pngPage()], { callback_url: `https://example.com/${'a'.repeat(480)}`, client_ref: 'я'.repeat(255) }));
    expect(res.statusCode).toBe(202);
    const health = await h.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
  });
});
