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
