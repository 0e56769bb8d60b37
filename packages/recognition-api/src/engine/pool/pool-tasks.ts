/**
 * The worker-thread side of the recognition pool (piscina loads this file in each worker; see
 * recognition-pool.ts). Everything that touches pixels runs here, never on the API's event loop: the upload
 * check (decode), preprocessing with its JavaScript pixel loops, Tesseract (child processes) and extraction,
 * and the AI adapter's downscale/re-encode. Results cross the thread boundary as plain objects: errors carry a
 * stable `reason`, never a class (`instanceof` does not survive structured cloning).
 */
import { threadId, type MessagePort } from 'node:worker_threads';
import sharp from 'sharp';
import { ImageRejected, type CheckedImage } from '../image-check.js';
import { checkUpload } from '../upload-check.js';
import { expandPdfImages } from '../pdf/pdf-pages.js';
import { RecognitionFailedError, type RecognitionInput, type RecognitionOutput } from '../engine.port.js';
import { createLocalOcrEngine, type LocalOcrEngine } from '../ocr/index.js';
import { shrinkForAi, type AiImage } from '../ai/ai-images.js';

// One libvips thread per worker and no operation cache: the pool's threads are the parallelism, and a cache
// would keep decoded pages alive between tasks.
sharp.concurrency(1);
sharp.cache(false);

/** Every task answer names the thread it ran on (the structural proof that the work is off the main thread). */
export type TaskResult<T> = ({ ok: true; value: T } | { ok: false; reason: string; message: string }) & { threadId: number };

const engines = new Map<string, LocalOcrEngine>();
function engineFor(o: {
  tesseractPath?: string;
  niceness?: number;
  pagesInParallel?: number;
  languages?: string;
  tesseractMemoryMb?: number;
}): LocalOcrEngine {
  const key = `${o.tesseractPath ?? ''}|${o.niceness ?? 0}|${o.pagesInParallel ?? 1}|${o.languages ?? ''}|${o.tesseractMemoryMb ?? 0}`;
  let e = engines.get(key);
  if (!e) {
    e = createLocalOcrEngine({
      concurrency: o.pagesInParallel ?? 1,
      tesseractPath: o.tesseractPath,
      niceness: o.niceness,
      languages: o.languages,
      tesseractMemoryMb: o.tesseractMemoryMb,
    });
    engines.set(key, e);
  }
  return e;
}

/** Aborts `ac` when the main thread posts on `port` (the deadline passed); the port is closed afterwards. */
function listen(port: MessagePort | undefined, ac: AbortController): () => void {
  if (!port) return () => {};
  port.once('message', () => ac.abort());
  return () => port.close();
}

/** Upload check of one file (documents/upload-check.ts: an image or a PDF). `reason` `rejected` carries the caller-safe message. */
export async function checkImageTask(t: { bytes: Uint8Array }): Promise<TaskResult<CheckedImage>> {
  try {
    return { ok: true, value: await checkUpload(Buffer.from(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength)), threadId };
  } catch (err) {
    if (err instanceof ImageRejected) return { ok: false, reason: 'rejected', message: err.message, threadId };
    return { ok: false, reason: 'error', message: (err as Error).message, threadId };
  }
}

/** Recognition of one document by the local OCR engine; aborted through `abortPort`. */
export async function recognizeTask(
  t: Omit<RecognitionInput, 'signal' | 'images'> & {
    images: Uint8Array[];
    abortPort?: MessagePort;
    tesseractPath?: string;
    niceness?: number;
    pagesInParallel?: number;
    /** Tesseract languages (RECOGNITION_OCR_LANGUAGES through the pool); default the engine's. */
    languages?: string;
    /** Address-space limit of each Tesseract process, MB (RECOGNITION_TESSERACT_MEMORY_MB through the pool). */
    tesseractMemoryMb?: number;
  },
): Promise<TaskResult<RecognitionOutput>> {
  const ac = new AbortController();
  const done = listen(t.abortPort, ac);
  try {
    const images = t.images.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    const value = await engineFor(t).recognize({ images, documentType: t.documentType, imageQuality: t.imageQuality, signal: ac.signal });
    return { ok: true, value, threadId };
  } catch (err) {
    const reason = err instanceof RecognitionFailedError ? err.reason : ac.signal.aborted ? 'timeout' : 'engine_error';
    return { ok: false, reason, message: (err as Error).message, threadId };
  } finally {
    done();
  }
}

/** Downscale and re-encode pages for the AI adapter (engine/ai/ai-images.ts). */
export async function shrinkForAiTask(t: { images: Uint8Array[] }): Promise<TaskResult<AiImage[]>> {
  try {
    // A PDF becomes its rendered pages: the vision model reads pixels, not the text layer.
    const pages = await expandPdfImages(t.images.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
    const value = await Promise.all(pages.map((b) => shrinkForAi(b)));
    return { ok: true, value, threadId };
  } catch (err) {
    const reason = err instanceof RecognitionFailedError ? err.reason : 'undecodable_image';
    return { ok: false, reason, message: (err as Error).message, threadId };
  }
}
