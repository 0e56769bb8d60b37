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
    const sender = new CallbackSender({ repo: h.services.callbacks, http: answering([502]), clock: h.clock });
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
});
