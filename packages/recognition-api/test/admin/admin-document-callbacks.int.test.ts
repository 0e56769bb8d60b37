/**
 * The administration panel's document page shows the document's completion callback — its
 * URL, status and every POST with its HTTP status or error — so a failed callback is visible beyond metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackHttp } from '../../src/callbacks/callback-http.js';
import { CallbackSender } from '../../src/callbacks/callback-sender.js';
import { runWorkerStep } from '../../src/jobs/worker.js';
import type { Harness } from '../harness.js';
import { pngPage, recognizeForm } from '../fixtures.js';
import { makeAdminHarness, PanelClient } from './admin-harness.js';

let h: Harness;
let c: PanelClient;
beforeAll(async () => {
  h = await makeAdminHarness();
  c = new PanelClient(h.app);
  await c.signIn();
});
afterAll(() => h.close());

/** Runs the worker until the queue is empty (earlier tests may leave documents queued before this one). */
const drainQueue = async () => {
  for (let i = 0; i < 20 && (await runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock })); i++);
};

/** Answers each POST with the next status of `statuses`. */
const answering = (statuses: number[]): CallbackHttp => ({ postJson: async () => ({ status: statuses.shift() ?? 200 }) });

describe('admin panel: a document page shows its callback', () => {
  it('lists each attempt with its HTTP status and error, and the next attempt while pending', async () => {
    const id = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/recognize',
        headers: { 'x-api-key': h.keyA },
        payload: recognizeForm([await pngPage()], { callback_url: 'https://receiver.example/hook?a=<b>' }),
      })
    ).json().id;
    await runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock });
    const before = await c.get(`/admin/documents/${id}`);
    expect(before.body).toContain('Обратный вызов');
    expect(before.body).toContain('Попыток отправки ещё не было.');
    const sender = new CallbackSender({ repo: h.services.callbacks, secrets: h.services.keys, http: answering([502]), clock: h.clock });
    await sender.runOnce();
    await sender.settled();
    const res = await c.get(`/admin/documents/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('https://receiver.example/hook?a=&lt;b&gt;'); // the caller's URL is escaped
    expect(res.body).toContain('доставляется');
    expect(res.body).toContain('следующая попытка');
    expect(res.body).toMatch(/<td class="num">502<\/td><td>ошибка: HTTP 502<\/td>/);
  });

  it('shows no callback section for a document uploaded without callback_url', async () => {
    const id = (
      await h.app.inject({ method: 'POST', url: '/api/v1/recognize', headers: { 'x-api-key': h.keyA }, payload: recognizeForm([await pngPage()]) })
    ).json().id;
    expect((await c.get(`/admin/documents/${id}`)).body).not.toContain('Обратный вызов');
  });

  it('re-sends a delivered callback as a new series from the panel, audited; refuses while a series is pending', async () => {
    const id = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/recognize',
        headers: { 'x-api-key': h.keyA },
        payload: recognizeForm([await pngPage()], { callback_url: 'https://receiver.example/resend' }),
      })
    ).json().id;
    await drainQueue();
    await c.get(`/admin/documents/${id}`);
    // pending: the panel shows no button and a forged POST is refused with the API's reason, nothing changes
    expect((await c.get(`/admin/documents/${id}`)).body).not.toContain('Отправить обратный вызов повторно');
    const early = await c.post(`/admin/documents/${id}/callback-resend`);
    expect(early.statusCode).toBe(303);
    expect(early.headers.location).toBe(`/admin/documents/${id}?refused=CALLBACK_IN_PROGRESS`);
    expect((await c.get(early.headers.location as string)).body).toContain('ещё доставляется');
    expect((await h.services.callbacks.history(id))?.series).toBe(1);

    const sender = new CallbackSender({ repo: h.services.callbacks, secrets: h.services.keys, http: answering([200]), clock: h.clock });
    await sender.runOnce();
    await sender.settled();
    const delivered = await c.get(`/admin/documents/${id}`);
    expect(delivered.body).toContain('доставлен');
    expect(delivered.body).toContain('Отправить обратный вызов повторно');

    const res = await c.post(`/admin/documents/${id}/callback-resend`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/admin/documents/${id}?done=resent`);
    const after = await c.get(res.headers.location as string);
    expect(after.body).toContain('Обратный вызов поставлен на повторную отправку.');
    expect(after.body).toContain('повторная отправка № 1');
    expect((await h.services.callbacks.history(id))?.series).toBe(2);
    const audit = await c.get('/admin/audit');
    expect(audit.body).toContain('Обратный вызов отправлен повторно');
    expect(audit.body).toContain(id);
  });

  it('a form without the CSRF token re-sends nothing', async () => {
    const id = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/recognize',
        headers: { 'x-api-key': h.keyA },
        payload: recognizeForm([await pngPage()], { callback_url: 'https://receiver.example/csrf' }),
      })
    ).json().id;
    await drainQueue();
    const sender = new CallbackSender({ repo: h.services.callbacks, secrets: h.services.keys, http: answering([200]), clock: h.clock });
    await sender.runOnce();
    await sender.settled();
    const res = await c.post(`/admin/documents/${id}/callback-resend`, {}, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect((await h.services.callbacks.history(id))?.series).toBe(1);
  });
});
