import { ManualClock } from '@app/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckedImage } from '../src/engine/image-check.js';
import { checkImage } from '../src/engine/image-check.js';
import type { ImageChecker } from '../src/documents/intake.js';
import type { RecognitionEngine, RecognitionInput, RecognitionOutput } from '../src/engine/engine.port.js';
import { JOB_LEASE_MS } from '../src/jobs/lease.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeHarness, type Harness } from './harness.js';
import { makeData, pngPage, recognizeForm } from './fixtures.js';
import { flush, ManualScheduler } from './support/manual-scheduler.js';

/**
 * An engine that ignores its abort signal entirely and answers only when the test says so: the worst case for
 * a deadline, so these tests prove the race is hard (the answer comes at the deadline whatever the engine does).
 */
class StubbornEngine implements RecognitionEngine {
  readonly name = 'stubborn';
  calls: RecognitionInput[] = [];
  private release: (() => void)[] = [];
  async recognize(input: RecognitionInput): Promise<RecognitionOutput> {
    this.calls.push(input);
    await new Promise<void>((r) => this.release.push(r));
    return { documentType: 'upd', data: makeData(), warnings: [], pages: input.images.length };
  }
  finishAll(): void {
    this.release.splice(0).forEach((r) => r());
  }
  async health() {
    return 'ok' as const;
  }
}

/** Upload check that the test can hold (a slow check eats into the deadline counted from arrival). */
let holdCheck: Promise<void> | null = null;
let checksStarted = 0;
const slowCheck: ImageChecker = async (bytes, _lane, signal) => {
  checksStarted++;
  if (holdCheck) await Promise.race([holdCheck, new Promise((_r, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))))]);
  return checkImage(bytes) as Promise<CheckedImage>;
};

let h: Harness;
const clock = new ManualClock('2026-11-23T09:05:00Z');
const sched = new ManualScheduler(clock);
const engine = new StubbornEngine();
beforeAll(async () => {
  h = await makeHarness({ clock, scheduler: sched, highSlots: 1, checkImage: slowCheck, highEngine: engine, localEngine: engine });
});
afterAll(async () => h.close());
beforeEach(async () => {
  engine.finishAll();
  await flush();
  engine.calls = [];
  holdCheck = null;
  await h.db.query('DELETE FROM documents');
});

/** Polls until `cond` holds (multipart parsing and sharp use the thread pool, so this polls briefly in real time). */
async function until(cond: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('condition not reached');
}

const postHigh = async () =>
  h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': h.keyA },
    payload: recognizeForm([await pngPage()], { priority: 'high' }),
  });
const docs = async () => h.db.query<{ id: string; status: string; error_code: string | null }>('SELECT id, status, error_code FROM documents');

describe('priority=high lane', () => {
  it('answers 422 RECOGNITION_TIMEOUT exactly at the deadline although the engine never stops, document failed', async () => {
    const pending = postHigh();
    await until(() => engine.calls.length === 1);
    expect(engine.calls[0]!.signal?.aborted).toBe(false);
    let settled = false;
    void pending.then(() => (settled = true));
    await sched.advance(35_000 - 1);
    expect(settled).toBe(false);
    await sched.advance(1);
    const res = await pending;
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toEqual({ code: 'RECOGNITION_TIMEOUT', message: 'timeout: recognition did not finish in time' });
    expect(engine.calls[0]!.signal?.aborted).toBe(true);
    const [row] = await docs();
    expect(row).toMatchObject({ id: res.json().id, status: 'failed', error_code: 'RECOGNITION_TIMEOUT' });
    // The engine finishing late changes nothing: the document is not completed behind the caller's back.
    engine.finishAll();
    await flush();
    expect((await docs())[0]!.status).toBe('failed');
    const got = await h.app.inject({ method: 'GET', url: `/api/v1/documents/${row!.id}`, headers: { 'x-api-key': h.keyA } });
    expect(got.json()).toMatchObject({ status: 'failed', error: { code: 'RECOGNITION_TIMEOUT' } });
  });

  it('counts the deadline from arrival: time spent in the upload check is not given again', async () => {
    let releaseCheck!: () => void;
    holdCheck = new Promise<void>((r) => (releaseCheck = r));
    const started = checksStarted;
    const arrived = clock.now().getTime();
    const pending = postHigh();
    await until(() => checksStarted > started);
    await sched.advance(30_000);
    releaseCheck();
    await until(() => engine.calls.length === 1);
    await sched.advance(5_000);
    const res = await pending;
    expect(res.json().error.code).toBe('RECOGNITION_TIMEOUT');
    expect(clock.now().getTime() - arrived).toBe(35_000);
  });

  it('a deadline passing during the upload check answers 422 RECOGNITION_TIMEOUT and stores nothing', async () => {
    holdCheck = new Promise<void>(() => {});
    const started = checksStarted;
    const pending = postHigh();
    await until(() => checksStarted > started);
    await sched.advance(35_000);
    const res = await pending;
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('RECOGNITION_TIMEOUT');
    expect(await docs()).toEqual([]);
  });

  it('refuses a high request at once with 503 + Retry-After when every high slot is busy, storing nothing', async () => {
    const first = postHigh();
    await until(() => engine.calls.length === 1);
    const res = await postHigh();
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('HIGH_PRIORITY_BUSY');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(35);
    expect(await docs()).toHaveLength(1);
    // normal requests are not affected by the high lane being full
    const normal = await h.app.inject({
      method: 'POST',
      url: '/api/v1/recognize',
      headers: { 'x-api-key': h.keyA },
      payload: recognizeForm([await pngPage()]),
    });
    expect(normal.statusCode).toBe(202);
    engine.finishAll();
    expect((await first).statusCode).toBe(200);
    expect(h.services.highLane.busy).toBe(0);
  });
});

describe('leases and the worker-side timeout', () => {
  const worker = () =>
    runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock, scheduler: sched, jobTimeoutMs: 10 * 60_000 });
  const upload = async () =>
    (
      await h.app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': h.keyA }, payload: recognizeForm([await pngPage()]) })
    ).json().id as string;

  it('renews the lease of a long job so no second worker takes it, and finishes it once', async () => {
    const id = await upload();
    const step = worker();
    await until(() => engine.calls.length === 1);
    for (let i = 0; i < 6; i++) {
      await sched.advance(JOB_LEASE_MS / 2);
      // The renewal is a database write: on a loaded machine it can take longer than a few event-loop turns.
      const leaseUntil = async () =>
        new Date((await h.db.query<{ lease_until: Date }>('SELECT lease_until FROM documents WHERE id = $1', [id]))[0]!.lease_until).getTime();
      await until(async () => (await leaseUntil()) > clock.now().getTime());
      expect(await h.services.queue.claim(clock.now(), JOB_LEASE_MS)).toBeNull();
    }
    engine.finishAll();
    expect(await step).toBe(true);
    expect((await docs())[0]!.status).toBe('completed');
    expect(engine.calls).toHaveLength(1);
  });

  it('fails a job whose engine never answers with RECOGNITION_TIMEOUT at the worker timeout', async () => {
    await upload();
    const step = worker();
    await until(() => engine.calls.length === 1);
    await sched.advance(10 * 60_000);
    expect(await step).toBe(true);
    expect((await docs())[0]).toMatchObject({ status: 'failed', error_code: 'RECOGNITION_TIMEOUT' });
    expect(engine.calls[0]!.signal?.aborted).toBe(true);
  });
});
