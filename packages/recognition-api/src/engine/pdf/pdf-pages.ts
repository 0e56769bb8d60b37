import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { RecognitionFailedError } from '../engine.port.js';
import type { VerticalRule, Word } from '../extract/words.js';
import { removeRules } from '../ocr/rules.js';
import { readPdfInfo } from './pdf-info.js';
import { hasTextLayer, parsePdfTextTsv, PDF_DPI } from './pdf-text.js';
import { PopplerError, runPoppler, type PopplerCall } from './poppler.js';
import { tiffPages } from '../tiff-pages.js';

/** One page of an uploaded PDF as the engine reads it: the words of its text layer, or a 300 DPI rendering for OCR. */
export type PdfPage = { kind: 'text'; words: Word[]; rules: VerticalRule[] } | { kind: 'image'; png: Buffer };

/** Resolution of the rendering that finds a text page's table rules: enough for 0.5-pt rules, ~4× cheaper than 300 DPI. */
const RULES_DPI = 150;

/**
 * Vertical table rules of a text-layer page, in 300 DPI pixels: the page rendered at 150 DPI and passed through
 * the OCR path's rule finder. The text layer has no rules, and without them long left-aligned names and wrapped
 * product codes fall into the wrong column (nearest label centre).
 */
async function textPageRules(path: string, page: number, call: PopplerCall): Promise<VerticalRule[]> {
  const png = await runPoppler('pdftoppm', ['-r', String(RULES_DPI), '-f', String(page), '-l', String(page), '-gray', '-png', '-singlefile', path], {
    timeoutMs: 60_000,
    ...call,
  });
  const { data, info } = await sharp(png).grayscale().raw().toBuffer({ resolveWithObject: true });
  const k = PDF_DPI / RULES_DPI;
  const px = new Uint8Array(data.buffer, data.byteOffset, data.length);
  return removeRules(px, info.width, info.height, 80 / k).map((r) => ({ x: r.x * k, top: r.top * k, bottom: r.bottom * k }));
}

/** True when the bytes are a PDF: the `%PDF-` header, which the PDF standard allows within the first 1024 bytes. */
export function isPdf(buf: Buffer): boolean {
  return buf.subarray(0, 1024).includes('%PDF-');
}

/** Runs `fn` with the PDF written to a private temporary file (poppler reads files, not stdin); removed afterwards. */
export async function withTempPdf<T>(pdf: Buffer, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'recog-pdf-'));
  try {
    const path = join(dir, 'in.pdf');
    await writeFile(path, pdf, { mode: 0o600 });
    return await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Renders page `page` (1-based) at 300 DPI as a grayscale PNG with `pdftoppm` (60 s limit). */
export async function renderPdfPage(path: string, page: number, call: PopplerCall = {}): Promise<Buffer> {
  return runPoppler('pdftoppm', ['-r', String(PDF_DPI), '-f', String(page), '-l', String(page), '-gray', '-png', '-singlefile', path], {
    timeoutMs: 60_000,
    ...call,
  });
}

/** Maps poppler failures to the engine's reasons: a file poppler cannot read is an undecodable image. */
function asRecognitionError(err: unknown): unknown {
  if (!(err instanceof PopplerError)) return err;
  const reason = { failed: 'undecodable_image', timeout: 'engine_error', aborted: 'timeout', unavailable: 'engine_unavailable' } as const;
  return new RecognitionFailedError(reason[err.kind], err.message);
}

/**
 * The pages of a PDF for recognition (docs/recognition-engine.md "PDF input"): `pdftotext -tsv` gives every
 * page's text layer with word boxes (scaled to 300 DPI pixels); a page with a text layer (≥ 20 words, as 1C and
 * office software print) is read from it, exactly and without OCR; a page without one (a scan) is rendered at
 * 300 DPI with `pdftoppm` for OCR. `textLayer: false` renders every page (the AI adapter needs images).
 * @throws RecognitionFailedError `undecodable_image` (poppler cannot read the file), `timeout` (signal),
 *   `engine_unavailable` (poppler-utils missing), `engine_error` (a tool ran past its time limit).
 */
export async function readPdfPages(pdf: Buffer, call: PopplerCall = {}, textLayer = true): Promise<PdfPage[]> {
  try {
    return await withTempPdf(pdf, async (path) => {
      const info = await readPdfInfo(path, 1, call);
      if (info.pages === 0) throw new RecognitionFailedError('undecodable_image', 'the PDF has no pages');
      const words = textLayer
        ? parsePdfTextTsv(
            (await runPoppler('pdftotext', ['-tsv', '-enc', 'UTF-8', path, '-'], { timeoutMs: 30_000, ...call })).toString('utf8'),
            info.pages,
          )
        : Array.from({ length: info.pages }, (): Word[] => []);
      const out: PdfPage[] = [];
      // One page at a time: rendering is CPU-bound and the engine's limiter already runs documents in parallel.
      for (const [i, ws] of words.entries()) {
        out.push(
          hasTextLayer(ws)
            ? { kind: 'text', words: ws, rules: await textPageRules(path, i + 1, call) }
            : { kind: 'image', png: await renderPdfPage(path, i + 1, call) },
        );
      }
      return out;
    });
  } catch (err) {
    throw asRecognitionError(err);
  }
}

/**
 * Page images of a list of uploads with every PDF rendered page by page and every multi-page TIFF split into its
 * pages (for engines that need pixels: the AI adapter).
 */
export async function expandPdfImages(images: Buffer[], call: PopplerCall = {}): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const img of images) {
    if (!isPdf(img)) out.push(...(await tiffPages(img)));
    else for (const p of await readPdfPages(img, call, false)) if (p.kind === 'image') out.push(p.png);
  }
  return out;
}
