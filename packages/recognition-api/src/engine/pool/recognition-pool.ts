import { cpus } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { ImageRejected, type CheckedImage } from '../image-check.js';
import type { AiImage } from '../ai/ai-images.js';
import { RecognitionFailedError, type RecognitionInput, type RecognitionOutput } from '../engine.port.js';
import type { TaskResult } from './pool-tasks.js';

/** Options of one {@link RecognitionPool}. */
export interface RecognitionPoolOptions {
  /** Name for logs (`high`, `background`). */
  name: string;
  /** Worker threads (each runs one task at a time). */
  threads: number;
  /** V8 heap cap per worker thread in MB (piscina `resourceLimits`); a task above it kills only its thread. Default 768. */
  maxHeapMb?: number;
  /** Niceness of the Tesseract processes this pool starts (0 normal; background lane 10). */
  niceness?: number;
  /** Pages of one document read in parallel inside a task (default 1: the pool's threads are the parallelism). */
  pagesInParallel?: number;
  tesseractPath?: string;
  /** Tesseract languages of the local engine in this pool's threads (RECOGNITION_OCR_LANGUAGES, e.g. `rus+eng`); default the engine's (`rus`). */
  languages?: string;
  /** Address-space limit of each Tesseract process, MB (RECOGNITION_TESSERACT_MEMORY_MB); absent or 0: none. */
  tesseractMemoryMb?: number;
  /** After an abort, how long a task may take to stop by itself before its thread is terminated (ms, default 2000). */
  abortGraceMs?: number;
  /** Worker module (tests give their own); default `pool-worker.mjs` beside this file. */
  filename?: string;
}

/**
 * The worker entry. Compiled (`dist/…/recognition-pool.js`, production): the compiled task module itself. From
 * source (tsx, Vitest): plain ESM that loads pool-tasks.ts through tsx (see pool-worker.mjs).
 */
const WORKER = import.meta.url.endsWith('.js') ? new URL('./pool-tasks.js', import.meta.url) : new URL('./pool-worker.mjs', import.meta.url);

/**
 * A piscina pool of worker threads that does all pixel and OCR work off the API's event loop (docs/decisions.md "Pixel work off the event loop"):
 * upload checks, preprocessing, Tesseract, AI downscaling. Each thread has a V8 heap cap; libvips memory is
 * bounded by the reduced decode (image-check.ts, preprocess.ts). A task given a `signal` is raced hard against
 * it: the caller gets the timeout at once, the worker is told to abort (its Tesseract processes are killed),
 * and a task that does not stop within `abortGraceMs` has its thread terminated by piscina.
 */
export class RecognitionPool {
  private readonly piscina: Piscina;
  /** Thread ids that answered tasks (the structural proof in tests that work ran off the main thread). */
  readonly threadIds = new Set<number>();

  private readonly languages: string | undefined;
  /** Tasks not yet settled (including aborted ones still stopping): close() waits for them. */
  private readonly tasks = new Set<Promise<unknown>>();

  constructor(private readonly opts: RecognitionPoolOptions) {
    this.languages = opts.languages;
    const filename = opts.filename ?? WORKER.href;
    this.piscina = new Piscina({
      filename,
      // All threads kept: piscina replaces a terminated thread only up to minThreads, and the pools are small.
      minThreads: Math.max(1, opts.threads),
      maxThreads: Math.max(1, opts.threads),
      idleTimeout: 60_000,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 768, maxYoungGenerationSizeMb: 64 },
    });
  }

  /** Tasks waiting for a free thread. */
  get queued(): number {
    return this.piscina.queueSize;
  }

  /** Runs task `name` (an export of the worker module); `signal` aborts it hard (see class doc). */
  async run<T>(name: string, payload: object, signal?: AbortSignal): Promise<TaskResult<T>> {
    if (signal?.aborted) throw new RecognitionFailedError('timeout', `${this.opts.name} pool task aborted before it started`);
    const { port1, port2 } = new MessageChannel();
    const kill = new AbortController();
    const task = this.piscina.run({ ...payload, abortPort: port2 }, { name, transferList: [port2], signal: kill.signal }) as Promise<TaskResult<T>>;
    let grace: NodeJS.Timeout | undefined;
    const onAbort = () => {
      port1.postMessage('abort');
      grace = setTimeout(() => kill.abort(), this.opts.abortGraceMs ?? 2000);
      grace.unref();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const settled = task.finally(() => {
      clearTimeout(grace);
      port1.close();
      signal?.removeEventListener('abort', onAbort);
    });
    settled.catch(() => {}); // a terminated task rejects after the race below was already decided
    const tracked = settled.then(
      () => {},
      () => {},
    );
    this.tasks.add(tracked);
    void tracked.then(() => this.tasks.delete(tracked));
    const aborted = new Promise<never>((_r, reject) => {
      signal?.addEventListener('abort', () => reject(new RecognitionFailedError('timeout', 'recognition aborted at the deadline')), { once: true });
    });
    try {
      const res = await (signal ? Promise.race([settled, aborted]) : settled);
      this.threadIds.add(res.threadId);
      return res;
    } catch (err) {
      if (err instanceof RecognitionFailedError) throw err;
      const e = err as Error & { code?: string };
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY')
        throw new RecognitionFailedError('engine_error', `task exceeded the ${this.opts.maxHeapMb ?? 768} MB memory cap`);
      throw new RecognitionFailedError('engine_error', `${this.opts.name} pool task failed: ${e.message}`);
    }
  }

  /** The upload check (image-check.ts) on a pool thread. @throws ImageRejected, RecognitionFailedError (timeout). */
  async checkImage(bytes: Buffer, signal?: AbortSignal): Promise<CheckedImage> {
    const res = await this.run<CheckedImage>('checkImageTask', { bytes }, signal);
    if (res.ok) return { ...res.value, bytes: Buffer.from(res.value.bytes.buffer, res.value.bytes.byteOffset, res.value.bytes.byteLength) };
    if (res.reason === 'rejected') throw new ImageRejected(res.message);
    throw new ImageRejected('the image could not be checked');
  }

  /** Recognition by the local OCR engine on a pool thread. @throws RecognitionFailedError. */
  async recognize(input: RecognitionInput): Promise<RecognitionOutput> {
    const { signal, ...rest } = input;
    const payload = {
      ...rest,
      tesseractPath: this.opts.tesseractPath,
      niceness: this.opts.niceness,
      tesseractMemoryMb: this.opts.tesseractMemoryMb || undefined,
      pagesInParallel: this.opts.pagesInParallel,
      languages: this.languages,
    };
    const res = await this.run<RecognitionOutput>('recognizeTask', payload, signal);
    if (res.ok) return res.value;
    throw new RecognitionFailedError(res.reason as RecognitionFailedError['reason'], res.message);
  }

  /** Pages downscaled and re-encoded for the AI model (ai-images.ts). @throws RecognitionFailedError. */
  async shrinkForAi(images: Buffer[], signal?: AbortSignal): Promise<AiImage[]> {
    const res = await this.run<AiImage[]>('shrinkForAiTask', { images }, signal);
    if (res.ok) return res.value;
    throw new RecognitionFailedError('undecodable_image', res.message);
  }

  /**
   * Waits (at most `abortGraceMs` after the last abort, 2 s by default) for the tasks still running, then
   * terminates the threads. An aborted task kills its Tesseract processes before it settles; terminating its
   * thread first would orphan them (docs/decisions.md "Shutdown releases jobs": a SIGTERM must not leave Tesseract running).
   */
  async close(): Promise<void> {
    if (this.tasks.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((r) => {
        timer = setTimeout(r, (this.opts.abortGraceMs ?? 2000) + 500);
      });
      await Promise.race([Promise.all(this.tasks), grace]);
      clearTimeout(timer);
    }
    await this.piscina.destroy();
  }
}

/** Default thread counts: the background lane gets the workers, the high lane its own slots (docs/decisions.md "Two lanes"). */
export const defaultThreads = (): number => Math.max(1, cpus().length);
