/**
 * Callback deliveries are fenced like jobs (a sender whose lease was taken over records
 * nothing), one POST has a hard deadline (a trickling receiver cannot hold it past the lease), every callback is
 * signed (rows without a key too), and the caller sees and re-sends its callback (GET …/callbacks, POST
 * …/callbacks/resend). Outgoing HTTP is a scripted fake; clock and timers are manual.
 */
import { ManualClock } from '@app/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallbackHttp } from '../src/callbacks/callback-http.js';
import { CALLBACK_ATTEMPT_DEADLINE_MS, CALLBACK_LEASE_MS, CallbackSender } from '../src/callbacks/callback-sender.js';
import { verifyCallback } from '../src/callbacks/callback-signature.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';
import { ManualScheduler } from './support/manual-scheduler.js';

/** Outgoing HTTP whose answers the test hands out one by one (each POST waits for `answer`). */
class ScriptedHttp implements CallbackHttp {
  posts: { url: string; body: string; headers: Record<string, string>; answer: (status: number) => void }[] = [];
  postJson(url: string, body: string, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<{ status: number }> {
    return new Promise((resolve, reject) => {
      this.posts.push({ url, body, headers, answer: (status) => resolve({ status }) });
      signal?.addEventListener('abort', () => reject(new Error('aborted')));
    });
  }
}

const URL_ = 'https://receiver.example/hook';
const clock = new ManualClock('2026-11-25T09:00:00Z');
const sched = new ManualScheduler(clock);
let h: Harness;
let http: ScriptedHttp;
beforeAll(async () => {
  h = await makeHarness({ clock, scheduler: sched });
});
afterAll(async () => h.close());
beforeEach(async () => {
  http = new ScriptedHttp();
  await h.db.query('DELETE FROM callback_attempts');
  await h.db.query('DELETE FROM callbacks');
  await h.db.query('DELETE FROM documents');
});

const newSender = () => new CallbackSender({ repo: h.services.callbacks, secrets: h.services.keys, http, clock, scheduler: sched });
/** Uploads and processes a document (with callback_url unless `withCallback` is false); resolves its id. */
async function completedDoc(withCallback = true): Promise<string> {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': h.keyA },
    payload: recognizeForm([await pngPage()], withCallback ? { callback_url: URL_ } : {}),
  });
  await runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock, scheduler: sched });
  return res.json().id;
}
async function until(cond: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await cond()).toBe(true);
}
const row = async (id: string) => (await h.services.callbacks.forDocument(id))!;
const history = (id: string, key = h.keyA) =>
  h.app.inject({ method: 'GET', url: `/api/v1/documents/${id}/callbacks`, headers: { 'x-api-key': key } });
const resend = (id: string, key = h.keyA) =>
  h.app.inject({ method: 'POST', url: `/api/v1/documents/${id}/callbacks/resend`, headers: { 'x-api-key': key } });

describe('deliveries are fenced and bounded', () => {
  it('a sender whose lease was taken over records nothing when its stale POST is finally answered', async () => {
    const id = await completedDoc();
    const a = newSender();
    await a.runOnce();
    await until(() => http.posts.length === 1);
    // A stalls (its timers do not run) past the lease; B claims the row and is answered.
    clock.advance(CALLBACK_LEASE_MS + 1);
    const b = newSender();
    await b.runOnce();
    await until(() => http.posts.length === 2);
    http.posts[1]!.answer(503);
    await b.settled();
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 503' });
    // A's receiver finally answers 200 to the stale POST: it is not recorded (B's series goes on).
    http.posts[0]!.answer(200);
    await a.settled();
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 503' });
    expect(await h.db.query('SELECT http_status FROM callback_attempts')).toEqual([{ http_status: 503 }]);
  });

  it('a receiver that never completes its answer fails the attempt at the deadline, before the lease ends', async () => {
    const id = await completedDoc();
    const s = newSender();
    await s.runOnce();
    await until(() => http.posts.length === 1);
    await sched.advance(CALLBACK_ATTEMPT_DEADLINE_MS);
    await s.settled();
    expect(CALLBACK_ATTEMPT_DEADLINE_MS).toBeLessThan(CALLBACK_LEASE_MS);
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1, last_error: 'no complete answer within 30 s' });
    expect((await row(id)).next_attempt_at).toEqual(new Date(clock.now().getTime() + 5_000));
  });
});

describe('every callback is signed', () => {
  it('a row without a key (older than migration 003) is signed with its document key secret', async () => {
    const id = await completedDoc();
    await h.db.query('UPDATE callbacks SET api_key_id = NULL WHERE document_id = $1', [id]);
    const s = newSender();
    await s.runOnce();
    await until(() => http.posts.length === 1);
    const { body, headers } = http.posts[0]!;
    const keyId = (await h.db.query<{ api_key_id: string }>('SELECT api_key_id FROM documents WHERE id = $1', [id]))[0]!.api_key_id;
    const secret = (await h.services.keys.secretFor(keyId))!;
    expect(() => verifyCallback(secret, headers, body, Math.floor(clock.now().getTime() / 1000))).not.toThrow();
    http.posts[0]!.answer(204);
    await s.settled();
  });

  it('a key without a secret gets one, and the callback is signed with it', async () => {
    const id = await completedDoc();
    const keyId = (await h.db.query<{ api_key_id: string }>('SELECT api_key_id FROM documents WHERE id = $1', [id]))[0]!.api_key_id;
    await h.db.query('UPDATE api_keys SET callback_secret = NULL WHERE id = $1', [keyId]);
    const s = newSender();
    await s.runOnce();
    await until(() => http.posts.length === 1);
    const secret = (await h.services.keys.secretFor(keyId))!;
    expect(secret).toMatch(/^whsec_/);
    expect(() => verifyCallback(secret, http.posts[0]!.headers, http.posts[0]!.body, Math.floor(clock.now().getTime() / 1000))).not.toThrow();
    http.posts[0]!.answer(200);
    await s.settled();
  });
});

describe('GET /api/v1/documents/{id}/callbacks and POST …/resend', () => {
  it('lists every POST with its HTTP status and error; another key gets 404', async () => {
    const id = await completedDoc();
    const s = newSender();
    await s.runOnce();
    await until(() => http.posts.length === 1);
    http.posts[0]!.answer(500);
    await s.settled();
    clock.advance(5_000);
    await s.runOnce();
    await until(() => http.posts.length === 2);
    http.posts[1]!.answer(200);
    await s.settled();
    const res = await history(id);
    expect(res.statusCode).toBe(200);
    const cb = (await row(id)) && res.json().data[0];
    expect(cb).toMatchObject({
      url: URL_,
      status: 'delivered',
      series: 1,
      attempt_count: 2,
      max_attempts: 4,
      next_attempt_at: null,
      last_error: null,
    });
    expect(cb.id).toMatch(/^cb_/);
    expect(cb.attempts).toEqual([
      expect.objectContaining({ series: 1, attempt: 1, outcome: 'failed', http_status: 500, error: 'HTTP 500' }),
      expect.objectContaining({ series: 1, attempt: 2, outcome: 'delivered', http_status: 200, error: null }),
    ]);
    expect((await history(id, h.keyB)).json()).toEqual({ error: { code: 'NOT_FOUND', message: 'document not found' } });
    expect((await history(id, h.keyB)).statusCode).toBe(404);
  });

  it('a document without callback_url has none to list or re-send', async () => {
    const id = await completedDoc(false);
    expect((await history(id)).json()).toEqual({ data: [] });
    const res = await resend(id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('CALLBACK_NOT_CONFIGURED');
  });

  it('re-send: 409 while pending, then a new series with the same delivery id; nothing changes on refusal', async () => {
    const id = await completedDoc();
    const pending = await resend(id);
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error.code).toBe('CALLBACK_IN_PROGRESS');
    const s = newSender();
    await s.runOnce();
    await until(() => http.posts.length === 1);
    http.posts[0]!.answer(200);
    await s.settled();
    clock.advance(60_000);
    const res = await resend(id);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'pending', series: 2, attempt_count: 0, next_attempt_at: clock.now().toISOString() });
    await s.runOnce();
    await until(() => http.posts.length === 2);
    expect(http.posts[1]!.headers['webhook-id']).toBe(http.posts[0]!.headers['webhook-id']);
    http.posts[1]!.answer(200);
    await s.settled();
    const cb = (await history(id)).json().data[0];
    expect(cb).toMatchObject({ status: 'delivered', series: 2, attempt_count: 1 });
    expect(cb.attempts.map((a: { series: number; attempt: number }) => [a.series, a.attempt])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it('re-send of a document still in the queue is 409 DOCUMENT_NOT_READY; unknown ids are 404', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/recognize',
      headers: { 'x-api-key': h.keyA },
      payload: recognizeForm([await pngPage()], { callback_url: URL_ }),
    });
    const r = await resend(res.json().id);
    expect(r.statusCode).toBe(409);
    expect(r.json().error.code).toBe('DOCUMENT_NOT_READY');
    expect((await resend('doc_missing')).statusCode).toBe(404);
    expect((await history('doc_x/../y')).statusCode).toBe(404);
  });
});
