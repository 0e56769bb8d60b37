/**
 * A multi-page TIFF is a whole document. Every page is checked at upload and counts against
 * the 5 pages of a request (422 beyond, nothing stored), and the engines read every page: the local OCR engine
 * (with a stand-in Tesseract that reports each page it is given) and the AI adapter's page list.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkImage } from '../src/engine/image-check.js';
import { createLocalOcrEngine } from '../src/engine/ocr/index.js';
import { expandPdfImages } from '../src/engine/pdf/pdf-pages.js';
import { tiffPages } from '../src/engine/tiff-pages.js';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';

/** A TIFF with `n` pages of 64×48, page i with a dark bar of grey level 20 + 30·i (so pages differ). */
async function multiPageTiff(n: number, width = 64, height = 48): Promise<Buffer> {
  const pages = Array.from({ length: n }, (_, i) => {
    const raw = Buffer.alloc(width * height * 3, 255);
    for (let x = 0; x < width * 3 * 4; x++) raw[width * 3 * 10 + x] = 20 + 30 * i;
    return raw;
  });
  return sharp(Buffer.concat(pages), { raw: { width, height: height * n, channels: 3, pageHeight: height } })
    .tiff({ compression: 'lzw' })
    .toBuffer();
}

let h: Harness;
beforeAll(async () => {
  h = await makeHarness();
});
afterAll(async () => h.close());

const post = async (files: Buffer[]) =>
  h.app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': h.keyA }, payload: recognizeForm(files) });
const count = async () => (await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents'))[0]!.n;

describe('multi-page TIFF at upload', () => {
  it('is accepted with its page count; a one-page TIFF stays one page', async () => {
    expect((await checkImage(await multiPageTiff(3))).pages).toBe(3);
    expect((await checkImage(await multiPageTiff(1))).pages).toBeUndefined();
    const res = await post([await multiPageTiff(2), await pngPage(), await pngPage(), await pngPage()]);
    expect(res.statusCode).toBe(202);
  });

  it('counts every page toward the 5-page limit: 422 naming the file, nothing stored', async () => {
    const before = await count();
    const res = await post([await pngPage(), await pngPage(), await multiPageTiff(4)]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'images[]: at most 5 pages per request (a PDF or a multi-page TIFF counts each page); "page3.png" brings the total to 6',
    });
    const alone = await post([await multiPageTiff(6)]);
    expect(alone.statusCode).toBe(422);
    expect(alone.json().error.message).toBe('images[0]: "page1.png": TIFF has 6 pages; at most 5 pages per request (each page counts as one image)');
    expect(await count()).toBe(before);
  });
});

describe('engines read every page of a multi-page TIFF', () => {
  it('tiffPages splits into PNG pages in order; the AI adapter gets them all', async () => {
    const tif = await multiPageTiff(3);
    const pages = await tiffPages(tif);
    expect(pages).toHaveLength(3);
    const bar = async (png: Buffer) => (await sharp(png).raw().toBuffer())[64 * 3 * 10];
    expect(await Promise.all(pages.map(bar))).toEqual([20, 50, 80]);
    expect(await expandPdfImages([tif, await pngPage()])).toHaveLength(4);
  });

  it('the local OCR engine runs Tesseract on each page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tiff-ocr-'));
    const log = join(dir, 'calls');
    const fake = join(dir, 'tesseract');
    // A stand-in Tesseract: records each call and answers an empty TSV (no words on the page).
    writeFileSync(
      fake,
      `#!/bin/sh\nif [ "$1" = "--list-langs" ]; then printf 'rus\\neng\\n'; exit 0; fi\ncat > /dev/null\necho call >> "${log}"\nprintf 'level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n'\n`,
      { mode: 0o755 },
    );
    try {
      const engine = createLocalOcrEngine({ tesseractPath: fake, concurrency: 1 });
      const run = async (images: Buffer[]) => {
        writeFileSync(log, '');
        await expect(engine.recognize({ images, documentType: 'upd', imageQuality: 'scan' })).rejects.toThrow(/no text found/);
        return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
      };
      const perPage = await run([await pngPage()]);
      expect(perPage).toBeGreaterThan(0);
      expect(await run([await multiPageTiff(3)])).toBe(3 * perPage);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
