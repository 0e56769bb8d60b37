// Worker module for RecognitionPool tests: the real tasks plus two misbehaving ones (kept out of src/).
import { threadId } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const tasks = await tsImport('../../src/engine/pool/pool-tasks.ts', import.meta.url);
export const checkImageTask = tasks.checkImageTask;

/** Holds the thread in a busy loop for `ms` of real time (a stuck pixel loop that ignores abort messages). */
export async function spinTask({ ms }) {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n++;
  return { ok: true, value: n, threadId };
}

/** Allocates JavaScript memory until the thread's heap cap stops it. */
export async function hogTask() {
  const keep = [];
  for (;;) keep.push(new Array(1_000_000).fill(Math.random()));
}

/** `recognizeTask` as the pool sends it, answered with the options it carries (no OCR): the pass-through test. */
export async function recognizeTask(t) {
  return { ok: true, value: { languages: t.languages ?? null, niceness: t.niceness ?? null }, threadId };
}

const preprocess = await tsImport('../../src/engine/ocr/preprocess.ts', import.meta.url);

/** The real page preparation (sheet outline with OpenCV.js, perspective warp, light correction) on this thread. */
export async function prepareTask({ bytes, quality }) {
  const page = await preprocess.preparePage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), quality);
  return {
    ok: true,
    value: { flattened: page.flattened, width: page.width, height: page.height, heapMb: process.memoryUsage().heapUsed / 2 ** 20 },
    threadId,
  };
}
