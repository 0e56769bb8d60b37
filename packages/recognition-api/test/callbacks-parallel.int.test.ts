import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackSender } from '../src/callbacks/callback-sender.js';
import { CALLBACK_TIMEOUT_MS, UndiciCallbackHttp } from '../src/callbacks/callback-http.js';
import { verifyCallback } from '../src/callbacks/callback-signature.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';

/** Parallel, signed callbacks. */
let h: Harness;
let good: Server;
let hanging: Server;
let goodUrl: string;
let hangingUrl: string;
const received: { headers: IncomingHttpHeaders; body: string; at: number }[] = [];
let hangingHits = 0;
const http = new UndiciCallbackHttp({ allowLoopback: true, timeoutMs: 400 });

const listen = async (s: Server) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`;
};
beforeAll(async () => {
  h = await makeHarness();
  good = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body, at: Date.now() });
      res.end();
    });
  });
  // Accepts the connection and never answers: an unreachable-in-practice receiver.
  hanging = createServer(() => {
    hangingHits++;
  });
  goodUrl = await listen(good);
  hangingUrl = await listen(hanging);
});
afterAll(async () => {
  await http.close();
  hanging.closeAllConnections();
  await Promise.all([new Promise((r) => good.close(r)), new Promise((r) => hanging.close(r))]);
  await h.close();
});

const upload = async (key: string, url: string) =>
  (
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/recognize',
      headers: { 'x-api-key': key },
      payload: recognizeForm([await pngPage()], { callback_url: url }),
    })
  ).json().id as string;
const workAll = async () => {
  while (await runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock }));
};
const keyIdOf = async (name: string) => (await h.db.query<{ id: string }>('SELECT id FROM api_keys WHERE name = $1', [name]))[0]!.id;

describe('callbacks are delivered in parallel and signed', () => {
  it('uses the spec 10 s timeouts by default', () => {
    const d = new UndiciCallbackHttp({ allowLoopback: false });
    expect(CALLBACK_TIMEOUT_MS).toBe(10_000);
    expect(d.timeouts).toEqual({ connect: 10_000, headers: 10_000, body: 10_000 });
    void d.close();
  });

  it("a receiver that never answers does not delay another key's callback; its attempt times out and is rescheduled", async () => {
    const a = await upload(h.keyA, hangingUrl);
    const b = await upload(h.keyB, goodUrl);
    await workAll();
    const sender = new CallbackSender({ repo: h.services.callbacks, secrets: h.services.keys, http, clock: h.clock });
    const t0 = Date.now();
    expect(await sender.runOnce()).toBe(true);
    for (let i = 0; i < 200 && (received.length === 0 || hangingHits === 0); i++) await new Promise((r) => setTimeout(r, 5));
    expect(received).toHaveLength(1);
    expect(hangingHits).toBe(1);
    expect(received[0]!.at - t0).toBeLessThan(400); // before A's 400 ms timeout: B did not wait for A
    // the receiver answered; B's row is marked right after the answer arrives (not timed: polled, bounded)
    for (let i = 0; i < 200 && (await h.services.callbacks.forDocument(b))!.status !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 5));
    expect((await h.services.callbacks.forDocument(b))!.status).toBe('delivered');
    expect(await h.services.callbacks.forDocument(a)).toMatchObject({ status: 'pending', attempts: 0 }); // A still hanging
    await sender.settled();
    const rowA = (await h.services.callbacks.forDocument(a))!;
    expect(rowA).toMatchObject({ status: 'pending', attempts: 1 });
    expect(new Date(rowA.next_attempt_at).getTime() - h.clock.now().getTime()).toBe(5_000);
    expect(rowA.last_error).toMatch(/timeout/i);
  });

  it('signs with the owner key secret in the Standard Webhooks form; the id is the delivery id', async () => {
    const sig = received[0]!;
    const secret = (await h.services.keys.secretFor(await keyIdOf('B')))!;
    expect(secret).toMatch(/^whsec_/);
    expect(sig.headers['webhook-id']).toMatch(/^cb_/);
    expect(Number(sig.headers['webhook-timestamp'])).toBe(Math.floor(h.clock.now().getTime() / 1000));
    expect(() => verifyCallback(secret, sig.headers as Record<string, string>, sig.body, Number(sig.headers['webhook-timestamp']))).not.toThrow();
    const otherSecret = (await h.services.keys.secretFor(await keyIdOf('A')))!;
    expect(() => verifyCallback(otherSecret, sig.headers as Record<string, string>, sig.body, Number(sig.headers['webhook-timestamp']))).toThrow(
      /no signature matches/,
    );
  });

  it('caps deliveries in flight per key, so one key cannot take every slot', async () => {
    await h.db.query('DELETE FROM callbacks');
    for (let i = 0; i < 5; i++) await upload(h.keyA, hangingUrl);
    await upload(h.keyB, goodUrl);
    await workAll();
    hangingHits = 0;
    received.length = 0;
    const sender = new CallbackSender({
      repo: h.services.callbacks,
      secrets: h.services.keys,
      http,
      clock: h.clock,
      limits: { total: 4, perKey: 2 },
    });
    for (let i = 0; i < 5; i++) await sender.runOnce();
    for (let i = 0; i < 200 && (received.length === 0 || hangingHits < 2); i++) await new Promise((r) => setTimeout(r, 5));
    expect(hangingHits).toBe(2);
    expect(received).toHaveLength(1);
    await sender.settled();
  });
});
