/**
 * Job fencing and shutdown in one process (PGlite, manual clock and scheduler): every write of a job holder is
 * fenced by its claim's token, a holder whose renewal finds the document taken over stops without writing, and a
 * shutdown releases the document at once without charging the attempt. The multi-process versions (a SIGSTOPped
 * worker, a SIGTERMed one) are test/job-fencing.pg.test.ts.
 */
import { ManualClock } from '@app/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentRecord, ProcessingResult } from '../src/documents/documents.types.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeHarness, type Harness } from './harness.js';
import { makeData, pngPage, recognizeForm } from './fixtures.js';
import { ManualScheduler } from './support/manual-scheduler.js';

const LEASE_MS = 60_000;
const clock = new ManualClock('2026-11-25T09:00:00Z');
const sched = new ManualScheduler(clock);
let h: Harness;
beforeAll(async () => {
  h = await makeHarness({ clock, scheduler: sched });
});
afterAll(async () => h.close());
beforeEach(async () => {
  h.engine.gate = null;
  h.engine.calls = [];
  await h.db.query('DELETE FROM documents');
});

const upload = async (): Promise<string> => {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': h.keyA },
    payload: recognizeForm([await pngPage()], { priority: 'normal' }),
  });
  return res.json().id;
};
const row = async (id: string) =>
  (
    await h.db.query<{ status: string; attempts: number; lease_token: number; data: { document: { number: string } } | null }>(
      'SELECT status, attempts, lease_token, data FROM documents WHERE id = $1',
      [id],
    )
  )[0]!;
const ok = (number: string): ProcessingResult => ({
  ok: true,
  documentType: 'upd',
  data: makeData({ document: { number, date: '01.11.2026' } }),
  confidence: 1,
  warnings: [],
  processingTimeMs: 5,
});
/** Polls until `cond` holds: the page file is read from disk, which takes real I/O turns. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}
const work = (shutdown?: AbortSignal) =>
  runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock, scheduler: sched, leaseMs: LEASE_MS, shutdown });

describe('job writes are fenced by the claim token', () => {
  it('a stalled holder whose document was claimed again aborts at its next renewal and writes nothing', async () => {
    const id = await upload();
    h.engine.gate = new Promise(() => {}); // W1 is recognising "forever"
    const w1 = work();
    await until(() => h.engine.calls.length === 1);
    // W1 stalls: the clock passes its lease while none of its timers fire; W2 claims the document (token 2).
    clock.advance(LEASE_MS + 1);
    // (W1 shared nothing here, but a death is only charged to a document run alone: W2 re-runs it alone, attempt 1.)
    const w2 = (await h.services.queue.claim(clock.now(), LEASE_MS, { alone: true }))!;
    expect(w2).toMatchObject({ id, leaseToken: 2, attempts: 1, isolate: true });
    // W1 wakes up: its renewal matches nothing, so it stops its engine and the step ends without a write.
    await sched.advance(LEASE_MS / 3);
    await expect(w1).resolves.toBe(true);
    expect(h.engine.calls[0]!.signal?.aborted).toBe(true);
    expect(await row(id)).toMatchObject({ status: 'processing', lease_token: 2, data: null });
    // W2's result is the one kept.
    expect(await h.services.processor.finish(w2, ok('W2'))).not.toBeNull();
    expect((await row(id)).data!.document.number).toBe('W2');
  });

  it("a stale holder's finish, renew and release match nothing; the new holder's do", async () => {
    const id = await upload();
    const w1 = (await h.services.queue.claim(clock.now(), LEASE_MS))!;
    clock.advance(LEASE_MS + 1);
    const w2 = (await h.services.queue.claim(clock.now(), LEASE_MS, { alone: true }))!;
    const later = new Date(clock.now().getTime() + LEASE_MS);
    expect(await h.services.queue.renew(w1, later)).toBe(false);
    expect(await h.services.queue.release(w1, clock.now(), { charge: true })).toBe(false);
    expect(await h.services.processor.finish(w1 as DocumentRecord, ok('W1'))).toBeNull();
    expect(await row(id)).toMatchObject({ status: 'processing', lease_token: 2, data: null });
    expect(await h.services.queue.renew(w2, later)).toBe(true);
    expect(await h.services.processor.finish(w2, ok('W2'))).not.toBeNull();
    expect((await row(id)).data!.document.number).toBe('W2');
  });
});

describe('shutdown releases the job at once, uncharged', () => {
  it('the engine is aborted and the document is queued again, due now, with its attempt given back', async () => {
    const id = await upload();
    h.engine.gate = new Promise(() => {});
    const shutdown = new AbortController();
    const step = work(shutdown.signal);
    await until(() => h.engine.calls.length === 1);
    expect(await row(id)).toMatchObject({ status: 'processing', attempts: 1, lease_token: 1 });
    shutdown.abort();
    await expect(step).resolves.toBe(true);
    expect(h.engine.calls[0]!.signal?.aborted).toBe(true);
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 0, lease_token: 1 });
    expect(sched.pending).toBe(0); // no lease heartbeat or job timeout left armed
    // Nothing more is claimed once stopping; the next process takes the document as its first attempt.
    expect(await work(shutdown.signal)).toBe(false);
    h.engine.gate = null;
    expect(await work()).toBe(true);
    expect(await row(id)).toMatchObject({ status: 'completed', attempts: 1, lease_token: 2 });
  });
});
