import { cpus } from 'node:os';
import { RecognitionFailedError, type EngineHealth, type RecognitionEngine, type RecognitionInput, type RecognitionOutput } from '../engine.port.js';
import { extractDocument, TABLE_NOT_FOUND, type Extraction } from '../extract/extract.js';
import { isPdf, readPdfPages, type PdfPage } from '../pdf/pdf-pages.js';
import { tiffPages } from '../tiff-pages.js';
import { Limiter } from './limiter.js';
import { OCR_LANGS, ocrPage, type PageOcr } from './page-ocr.js';
import { listLanguages } from './tesseract.js';

export { parseTsv } from './tsv.js';
export type { Extraction } from '../extract/extract.js';

/** Options of {@link createLocalOcrEngine}. */
export interface LocalOcrOptions {
  /**
   * Pages read at once across all documents of this engine; default the core count. A page runs one Tesseract process
   * at a time for its page reads (two when read in bands, `pageBands`) and up to three for its name-column crop.
   */
  concurrency?: number;
  /** Path of the tesseract binary; default `tesseract` on PATH. */
  tesseractPath?: string;
  /** Niceness of the Tesseract processes (0 default; the background lane uses 10). */
  niceness?: number;
  /** Tesseract languages of every page read; default by image quality (page-ocr.ts `OCR_LANGS`). The benchmark's `--langs` sets it. */
  languages?: string;
  /** Address-space limit of each Tesseract process, MB (tesseract.ts `memoryMb`); absent: none. */
  tesseractMemoryMb?: number;
  /**
   * Whether a scan's page may be read in two bands side by side (page-bands.ts) when a slot of `concurrency` is idle
   * as its read starts, so a lone page uses the second core; default true. Off, every page read is one process.
   */
  pageBands?: boolean;
}

/** The local engine with its extra, additive output: per-field confidences from Tesseract's word confidences. */
export interface LocalOcrEngine extends RecognitionEngine {
  recognizeDetailed(input: RecognitionInput): Promise<RecognitionOutput & { fieldConfidence: Extraction['fieldConfidence'] }>;
}

/**
 * The local OCR engine (Spec: Recognised data; ARCHITECTURE "Recognition pipeline"): sharp normalisation,
 * Tesseract 5 (`rus+eng`, single-threaded, pages in parallel up to `concurrency`); PDF uploads are read page by
 * page from their text layer, or rendered at 300 DPI and read like images (engine/pdf); type classification for `auto`,
 * layout-aware extraction of header and item table. Name `tesseract`; health `ok` when `tesseract --list-langs`
 * lists every language used (`rus`, `eng`), else `unavailable`.
 * @throws RecognitionFailedError `undecodable_image`, `no_document` (no text on any page), `timeout` (signal),
 *   `engine_unavailable`, `engine_error`.
 */
export function createLocalOcrEngine(opts: LocalOcrOptions = {}): LocalOcrEngine {
  const limiter = new Limiter(Math.max(1, opts.concurrency ?? cpus().length));
  const call = (signal?: AbortSignal) => ({
    tesseractPath: opts.tesseractPath,
    signal,
    niceness: opts.niceness,
    languages: opts.languages,
    memoryMb: opts.tesseractMemoryMb,
  });

  /**
   * Every upload as pages: an image is one page, a multi-page TIFF one page per directory; a PDF is read page by
   * page (text layer, else rendered).
   */
  async function pagesOf(input: RecognitionInput): Promise<PdfPage[]> {
    const out: PdfPage[] = [];
    for (const img of input.images) {
      if (!isPdf(img)) out.push(...(await tiffPages(img)).map((png): PdfPage => ({ kind: 'image', png })));
      else out.push(...(await limiter.run(() => readPdfPages(img, { signal: input.signal }))));
    }
    return out;
  }

  async function recognizeDetailed(input: RecognitionInput) {
    if (input.images.length === 0) throw new RecognitionFailedError('no_document', 'no page images');
    const sources = await pagesOf(input);
    const read = (src: PdfPage, how?: { deblur: boolean }): Promise<Pick<PageOcr, 'words' | 'rules' | 'rotated' | 'photo' | 'deblurred'>> => {
      // A text layer is the document's own text with exact boxes: no OCR; its rules come from a light rendering.
      if (src.kind === 'text') return Promise.resolve({ words: src.words, rules: src.rules, rotated: 0, photo: false, deblurred: false });
      return limiter.run(() => {
        if (input.signal?.aborted) throw new RecognitionFailedError('timeout', 'recognition aborted');
        // A slot idle as this page starts (no other page waits for it): the page's read may take a second process.
        const bands = (opts.pageBands ?? true) && limiter.idle > 0;
        return ocrPage(src.png, input.imageQuality, call(input.signal), { ...how, bands });
      });
    };
    const pages = await Promise.all(sources.map((src) => read(src)));
    if (pages.every((p) => p.words.length === 0)) throw new RecognitionFailedError('no_document', 'no text found on any page');
    const extract = () =>
      extractDocument(
        pages.map((p) => ({ words: p.words, rules: p.rules, photo: p.photo })),
        input.documentType,
      );
    let ex = extract();
    // A page whose table was not found on its deconvolved image (a photo, an enlarged scan) is read once more as
    // it came: the sharpening that reads most pages' digits and letters better can also break the thin
    // column-number row (docs/recognition-photo.md). The other reading is kept only when it finds more line items.
    const retry = pages.flatMap((p, i) =>
      p.deblurred && ex.warnings.some((w) => w.field === `pages[${i}]` && w.message === TABLE_NOT_FOUND) ? [i] : [],
    );
    if (retry.length > 0) {
      const first = [...pages];
      for (const [i, page] of await Promise.all(retry.map(async (i) => [i, await read(sources[i], { deblur: false })] as const))) pages[i] = page;
      const other = extract();
      if ((other.data.items?.length ?? 0) > (ex.data.items?.length ?? 0)) ex = other;
      else pages.splice(0, pages.length, ...first);
    }
    const warnings = [...ex.warnings];
    for (const [i, p] of pages.entries()) if (p.rotated) warnings.push({ field: `pages[${i}]`, message: `page was turned ${p.rotated}° to read it` });
    return { documentType: ex.documentType, data: ex.data, warnings, pages: pages.length, fieldConfidence: ex.fieldConfidence };
  }

  return {
    name: 'tesseract',
    recognizeDetailed,
    async recognize(input) {
      const { fieldConfidence: _omit, ...out } = await recognizeDetailed(input);
      return out;
    },
    async health(): Promise<EngineHealth> {
      const langs = await listLanguages(opts.tesseractPath);
      const needed = (opts.languages ?? Object.values(OCR_LANGS).join('+')).split('+');
      return langs && needed.every((l) => langs.includes(l)) ? 'ok' : 'unavailable';
    },
  };
}
