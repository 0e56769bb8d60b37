/**
 * A priority=high client that disconnects no longer holds its lane slot until the deadline.
 * Over real HTTP (the disconnect is a closed socket): the engine is aborted, the slot is free at once, and the
 * document is handed to the background queue (queued, uncharged, still `high`), where a worker finishes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';

let h: Harness;
let base: string;
beforeAll(async () => {
  h = await makeHarness({ highSlots: 1 });
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => h.close());

async function until(cond: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await cond()).toBe(true);
}
const doc = async () =>
  (await h.db.query<{ id: string; status: string; attempts: number; priority: string }>('SELECT id, status, attempts, priority FROM documents'))[0];

describe('priority=high and a client that goes away', () => {
  it('aborts the recognition, frees the slot at once and queues the document for the workers', async () => {
    h.engine.gate = new Promise(() => {}); // recognition would run until the 35 s deadline
    const client = new AbortController();
    const pending = fetch(`${base}/api/v1/recognize`, {
      method: 'POST',
      headers: { 'x-api-key': h.keyA },
      body: recognizeForm([await pngPage()], { priority: 'high' }),
      signal: client.signal,
    }).catch((err: Error) => err);
    await until(() => h.engine.calls.length === 1);
    expect(h.services.highLane.busy).toBe(1);
    client.abort();
    expect(await pending).toBeInstanceOf(Error);
    await until(async () => (await doc())?.status === 'queued');
    expect(h.engine.calls[0]!.signal?.aborted).toBe(true);
    expect(h.services.highLane.busy).toBe(0);
    expect(await doc()).toMatchObject({ status: 'queued', attempts: 0, priority: 'high' });
    h.engine.gate = null;
    expect(await runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock })).toBe(true);
    expect((await doc())!.status).toBe('completed');
  });
});
