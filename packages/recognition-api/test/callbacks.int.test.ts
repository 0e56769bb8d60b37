import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CallbackSender } from '../src/callbacks/callback-sender.js';
import { UndiciCallbackHttp } from '../src/callbacks/callback-http.js';
import { CallbacksRepo } from '../src/callbacks/callbacks.repo.js';
import { RecognitionFailedError } from '../src/engine/engine.port.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeHarness, type Harness } from './harness.js';
import { makeData, pngPage, recognizeForm } from './fixtures.js';

let h: Harness;
let receiver: Server;
let receiverUrl: string;
let received: { body: Record<string, unknown>; contentType: string | undefined }[] = [];
let answer = 200;
const http = new UndiciCallbackHttp({ allowLoopback: true });

beforeAll(async () => {
  h = await makeHarness();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), contentType: req.headers['content-type'] });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await http.close();
  await new Promise((r) => receiver.close(r));
  await h.close();
});
beforeEach(() => {
  received = [];
  answer = 200;
  h.engine.fail = null;
  h.engine.data = makeData();
});

/** A fresh sender (= a restarted process) whose runOnce also waits for the deliveries it started. */
const sender = () => {
  const s = new CallbackSender({ repo: new CallbacksRepo(h.db), secrets: h.services.keys, http, clock: h.clock });
  return {
    runOnce: async () => {
      const started = await s.runOnce();
      await s.settled();
      return started;
    },
  };
};
const upload = async (fields: Record<string, string> = {}) =>
  (
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/recognize',
      headers: { 'x-api-key': h.keyA },
      payload: recognizeForm([await pngPage()], { callback_url: receiverUrl, ...fields }),
    })
  ).json().id as string;
const work = () => runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock });

describe('completion callbacks (Spec: Events)', () => {
  it('POSTs the spec payload as JSON after processing; 2xx confirms', async () => {
    const id = await upload({ client_ref: 'r-1' });
    await work();
    expect(await sender().runOnce()).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0]!.contentType).toBe('application/json');
    expect(received[0]!.body).toEqual({
      event: 'document.completed',
      document_id: id,
      status: 'completed',
      document_type: 'upd',
      confidence: 1,
      data: makeData(),
      warnings: [],
      completed_at: h.clock.now().toISOString(),
      client_ref: 'r-1',
      manual_check_recommended: false,
    });
    expect((await h.services.callbacks.forDocument(id))!.status).toBe('delivered');
    expect(await sender().runOnce()).toBe(false);
  });

  it('failure sends document.failed with the error', async () => {
    h.engine.fail = new RecognitionFailedError('undecodable_image', 'x');
    const id = await upload();
    await work();
    await sender().runOnce();
    expect(received[0]!.body).toMatchObject({ event: 'document.failed', document_id: id, status: 'failed', error: { code: 'RECOGNITION_FAILED' } });
  });

  it('output_format=accounting adds the export to the payload', async () => {
    await upload({ output_format: 'accounting' });
    await work();
    await sender().runOnce();
    expect(received[0]!.body.export).toMatchObject({ accounting_version: '1.0' });
  });

  it('retries after 5 s, 30 s, 2 min, then gives up; the schedule survives a restart', async () => {
    answer = 500;
    const id = await upload();
    await work();
    const t0 = h.clock.now().getTime();
    expect(await sender().runOnce()).toBe(true);
    const expectNext = async (ms: number, attempts: number) => {
      const row = (await h.services.callbacks.forDocument(id))!;
      expect(row).toMatchObject({ status: 'pending', attempts, last_error: 'HTTP 500' });
      expect(new Date(row.next_attempt_at).getTime() - h.clock.now().getTime()).toBe(ms);
    };
    await expectNext(5_000, 1);
    h.clock.advance(4_999);
    expect(await sender().runOnce()).toBe(false);
    h.clock.advance(1);
    // a fresh sender over the same database = a restarted process
    expect(await sender().runOnce()).toBe(true);
    await expectNext(30_000, 2);
    h.clock.advance(30_000);
    expect(await sender().runOnce()).toBe(true);
    await expectNext(120_000, 3);
    h.clock.advance(120_000);
    expect(await sender().runOnce()).toBe(true);
    expect(await h.services.callbacks.forDocument(id)).toMatchObject({ status: 'failed', attempts: 4 });
    expect(received).toHaveLength(4);
    expect(h.clock.now().getTime() - t0).toBe(155_000);
    h.clock.advance(3_600_000);
    expect(await sender().runOnce()).toBe(false);
  });

  it('a later success confirms and stops the retries', async () => {
    answer = 503;
    const id = await upload();
    await work();
    await sender().runOnce();
    answer = 204;
    h.clock.advance(5_000);
    await sender().runOnce();
    expect(await h.services.callbacks.forDocument(id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('a sender that crashed mid-delivery leaves a lease; the row is sent after it expires', async () => {
    const id = await upload();
    await work();
    expect(await new CallbacksRepo(h.db).claimDue(h.clock.now(), 60_000)).toHaveLength(1);
    expect(await sender().runOnce()).toBe(false);
    h.clock.advance(60_001);
    expect(await sender().runOnce()).toBe(true);
    expect((await h.services.callbacks.forDocument(id))!.status).toBe('delivered');
  });

  it('deleting the document cancels its pending callback', async () => {
    answer = 500;
    const id = await upload();
    await work();
    await h.app.inject({ method: 'DELETE', url: `/api/v1/documents/${id}`, headers: { 'x-api-key': h.keyA } });
    expect(await h.services.callbacks.forDocument(id)).toBeNull();
  });

  it('without the development flag, the sender refuses loopback targets at connect time', async () => {
    const strict = new UndiciCallbackHttp({ allowLoopback: false });
    try {
      await expect(strict.postJson(receiverUrl, '{}')).rejects.toThrow(/non-public/);
      await expect(strict.postJson(receiverUrl.replace('127.0.0.1', 'localhost'), '{}')).rejects.toThrow(/non-public/);
      expect(received).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});
