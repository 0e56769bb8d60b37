/**
 * A document that makes the OS kill its process must not take the documents that shared the
 * process with it. A "process" here is a JobGate with its own workers, engine and timers; it "dies" when the
 * clock passes its leases while its work never ends (its timers never fire again). The poison document is
 * charged only for deaths while it ran alone and is failed after 3; the innocent one it was claimed with is
 * never charged and completes.
 */
import { ManualClock, SequentialIds } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecognitionEngine, RecognitionInput } from '../src/engine/engine.port.js';
import { DocumentProcessor } from '../src/jobs/document-processor.js';
import { JobGate } from '../src/jobs/job-gate.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeHarness, type Harness } from './harness.js';
import { makeData, pngPage, recognizeForm } from './fixtures.js';
import { ManualScheduler } from './support/manual-scheduler.js';

const LEASE_MS = 60_000;
const clock = new ManualClock('2026-11-25T09:00:00Z');
let h: Harness;
let poisonPage: Buffer;
beforeAll(async () => {
  h = await makeHarness({ clock });
  poisonPage = await pngPage(80, 60);
});
afterAll(async () => h.close());

/** An engine whose calls on `hang(input)` never return (the process is about to be killed); others succeed. */
const engine = (hang: (i: RecognitionInput) => boolean): RecognitionEngine & { calls: number } => {
  const e = {
    name: 'fake',
    calls: 0,
    async recognize(input: RecognitionInput) {
      e.calls++;
      if (hang(input)) await new Promise(() => {});
      return { documentType: 'upd' as const, data: makeData(), warnings: [], pages: input.images.length };
    },
    async health() {
      return 'ok' as const;
    },
  };
  return e;
};
const isPoison = (i: RecognitionInput) => i.images[0]!.equals(poisonPage);

/** A worker process: its gate, timers and engine; `step()` is one of its workers taking one step. */
function process_(hang: (i: RecognitionInput) => boolean) {
  const eng = engine(hang);
  const processor = new DocumentProcessor({ db: h.db, files: h.files, engine: eng, clock, ids: new SequentialIds() });
  const deps = { queue: h.services.queue, processor, clock, scheduler: new ManualScheduler(clock), leaseMs: LEASE_MS, gate: new JobGate() };
  return { engine: eng, step: () => runWorkerStep(deps) };
}
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}
const state = async (id: string) =>
  (
    await h.db.query<{ status: string; attempts: number; error_message: string | null }>(
      'SELECT status, attempts, error_message FROM documents WHERE id = $1',
      [id],
    )
  )[0]!;
const upload = async (page: Buffer) =>
  (await h.app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': h.keyA }, payload: recognizeForm([page]) })).json()
    .id as string;

describe('a poison document', () => {
  it('is charged only when it ran alone; the document claimed with it is never charged and completes', async () => {
    const poison = await upload(poisonPage);
    clock.advance(1);
    const innocent = await upload(await pngPage());
    // Process A runs both; the poison one kills it (both hang, then A's leases run out).
    const a = process_(() => true);
    void a.step();
    await until(() => a.engine.calls === 1);
    void a.step();
    await until(() => a.engine.calls === 2);
    clock.advance(LEASE_MS + 1);
    // Each restart re-runs the oldest isolated document alone: the poison one, whose deaths are now its own.
    for (const expected of [1, 2, 3]) {
      const p = process_(isPoison);
      void p.step();
      await until(() => p.engine.calls === 1);
      expect(await p.step()).toBe(false); // its other worker waits: the document runs alone
      expect(await state(poison)).toMatchObject({ status: 'processing', attempts: expected });
      expect(await state(innocent)).toMatchObject({ attempts: 1 });
      clock.advance(LEASE_MS + 1);
    }
    // The next process finds it interrupted 3 times while alone: failed. Then the innocent one, alone, completes.
    const last = process_(isPoison);
    expect(await last.step()).toBe(true);
    expect(await state(poison)).toMatchObject({ status: 'failed', error_message: 'engine_error: processing was interrupted 3 times' });
    expect(await last.step()).toBe(true);
    expect(await state(innocent)).toMatchObject({ status: 'completed', attempts: 1 });
  });
});
