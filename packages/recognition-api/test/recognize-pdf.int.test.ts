import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRenderer, generateDocument, imagesToPdf } from '@app/docgen';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';

// PDF uploads through the HTTP API with the real poppler-utils (pdfinfo) of scripts/check-system.mjs; the engine
// is the harness's fake, so these tests cover acceptance, the page limit and the refusals, not recognition
// (test/engine/local-ocr.e2e.test.ts reads PDFs with the real engine).
let h: Harness;
let textPdf: Buffer;
let scanPdf: Buffer;
beforeAll(async () => {
  h = await makeHarness();
  textPdf = (await generateDocument({ seed: 5, type: 'invoice', tier: 'scan', lines: 2, output: 'pdf-text' })).images[0]!;
  scanPdf = await imagesToPdf([await pngPage(600, 424), await pngPage(600, 424)]);
}, 60_000);
afterAll(async () => {
  await closeRenderer();
  await h.close();
});

async function post(form: FormData) {
  return h.app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': h.keyA }, payload: form });
}

async function storedCount(): Promise<number> {
  const rows = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents');
  return rows[0]!.n;
}

/** Nothing stored: no new document row and no files. */
async function expectNothingStoredSince(rowsBefore: number) {
  expect(await storedCount()).toBe(rowsBefore);
  const dir = `${h.dir}/files`;
  const docsWithFiles = existsSync(dir) ? readdirSync(dir).length : 0;
  expect(docsWithFiles).toBe(rowsBefore);
}

/** The same PDF encrypted with qpdf (AES-256): `user` empty = opens without a password, only restricted. */
function encrypt(pdf: Buffer, user: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-enc-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const r = spawnSync('qpdf', ['--encrypt', user, 'owner-secret', '256', '--', join(dir, 'in.pdf'), join(dir, 'out.pdf')]);
    if (r.status !== 0) throw new Error(`qpdf failed: ${r.stderr}`);
    return readFileSync(join(dir, 'out.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('POST /api/v1/recognize with PDF files', () => {
  it('accepts a text-layer PDF (chromium print) and stores it as a .pdf page file', async () => {
    const res = await post(recognizeForm([textPdf], {}, ['invoice.pdf']));
    expect(res.statusCode).toBe(202);
    const id = res.json().id as string;
    expect(readdirSync(`${h.dir}/files/${id}`)).toEqual(['page-1.pdf']);
    expect(readFileSync(`${h.dir}/files/${id}/page-1.pdf`).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('accepts a scanned PDF (page images, no text) with priority=high and hands the PDF to the engine', async () => {
    h.engine.calls = [];
    const res = await post(recognizeForm([scanPdf], { priority: 'high' }, ['scan.pdf']));
    expect(res.statusCode).toBe(200);
    expect(h.engine.calls).toHaveLength(1);
    expect(h.engine.calls[0]!.images[0]!.subarray(0, 5).toString()).toBe('%PDF-');
  });

  const refusals: [string, () => Promise<Buffer[]>, RegExp][] = [
    [
      'a broken PDF',
      async () => [Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without xref or trailer')],
      /^images\[0\]: "f0.pdf": PDF is damaged or not a PDF/,
    ],
    ['a truncated PDF', async () => [textPdf.subarray(0, 400)], /^images\[0\]: "f0.pdf": PDF is damaged/],
    ['a password-protected PDF', async () => [encrypt(textPdf, 'user-secret')], /^images\[0\]: "f0.pdf": PDF is password-protected/],
    [
      'an encrypted PDF that opens without a password (restrictions only)',
      async () => [encrypt(textPdf, '')],
      /^images\[0\]: "f0.pdf": PDF is encrypted/,
    ],
    [
      'a PDF of 6 pages',
      async () => [await imagesToPdf(await Promise.all(Array.from({ length: 6 }, () => pngPage())))],
      /^images\[0\]: "f0.pdf": PDF has 6 pages; at most 5 pages per request/,
    ],
    [
      'a PDF page of 5 × 5 m',
      async () => [await imagesToPdf([await pngPage()], [14_173, 14_173])],
      /^images\[0\]: "f0.pdf": PDF page 1 is 5000×5000 mm, at 300 DPI .*more than 50000000 allowed/,
    ],
    [
      'a 3-page PDF plus 3 images (6 pages in all)',
      async () => [await imagesToPdf(await Promise.all([pngPage(), pngPage(), pngPage()])), await pngPage(), await pngPage(), await pngPage()],
      /^images\[\]: at most 5 pages per request \(a PDF or a multi-page TIFF counts each page\); "f3.pdf" brings the total to 6/,
    ],
  ];
  for (const [name, files, message] of refusals) {
    it(`refuses ${name} with 422 VALIDATION_ERROR and stores nothing`, async () => {
      const before = await storedCount();
      const fs = await files();
      const res = await post(
        recognizeForm(
          fs,
          {},
          fs.map((_, i) => `f${i}.pdf`),
        ),
      );
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).toMatch(message);
      await expectNothingStoredSince(before);
    });
  }
});
