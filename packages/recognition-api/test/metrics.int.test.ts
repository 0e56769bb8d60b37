import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackSender } from '../src/callbacks/callback-sender.js';
import { UndiciCallbackHttp } from '../src/callbacks/callback-http.js';
import { CallbacksRepo } from '../src/callbacks/callbacks.repo.js';
import { RecognitionFailedError } from '../src/engine/engine.port.js';
import { runWorkerStep } from '../src/jobs/worker.js';
import { makeHarness, type Harness } from './harness.js';
import { pngPage, recognizeForm } from './fixtures.js';

// /metrics of the recognition service in Prometheus format — queue depth per priority, documents
// and pages through the engine, engine time, callback outcomes and request durations by route pattern.
let h: Harness;
let receiver: Server;
let url: string;
let status = 200;
const http = new UndiciCallbackHttp({ allowLoopback: true });

beforeAll(async () => {
  h = await makeHarness();
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await http.close();
  await new Promise((r) => receiver.close(r));
  await h.close();
});

const scrape = async () => {
  const res = await h.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return res.body;
};
/** The value of one sample line (`name{labels} value`), or undefined when absent. */
const sample = (text: string, line: string): number | undefined => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};
const upload = async (priority: 'normal' | 'batch', pages = 1, callback = true) => {
  const images = await Promise.all(Array.from({ length: pages }, () => pngPage()));
  const fields: Record<string, string> = { priority, ...(callback ? { callback_url: url } : {}) };
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': h.keyA },
    payload: recognizeForm(images, fields),
  });
  expect(res.statusCode).toBe(202);
};
const work = () => runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock });
const deliver = async () => {
  const s = new CallbackSender({ repo: new CallbacksRepo(h.db), secrets: h.services.keys, http, clock: h.clock, metrics: h.services.metrics });
  await s.runOnce();
  await s.settled();
};

describe('GET /metrics (recognition)', () => {
  it('needs no API key and counts queue depth per priority at scrape time', async () => {
    await upload('normal', 2);
    await upload('batch', 1, false);
    await upload('batch', 1, false);
    const text = await scrape();
    expect(sample(text, 'recognition_queue_depth{priority="normal"}')).toBe(1);
    expect(sample(text, 'recognition_queue_depth{priority="batch"}')).toBe(2);
    expect(sample(text, 'recognition_queue_depth{priority="high"}')).toBe(0);
  });

  it('counts documents and pages through the engine, and engine time by outcome', async () => {
    await work(); // the normal document, 2 pages
    h.engine.fail = new RecognitionFailedError('undecodable_image', 'x');
    await h.db.query(`UPDATE documents SET available_at = '2026-11-01T00:00:00Z' WHERE priority = 'batch'`);
    await work(); // one batch document fails
    h.engine.fail = null;
    const text = await scrape();
    expect(sample(text, 'recognition_documents_total{outcome="completed"}')).toBe(1);
    expect(sample(text, 'recognition_documents_total{outcome="failed"}')).toBe(1);
    expect(sample(text, 'recognition_pages_total')).toBe(3);
    expect(sample(text, 'recognition_ocr_duration_seconds_count{outcome="completed"}')).toBe(1);
    expect(sample(text, 'recognition_queue_depth{priority="normal"}')).toBe(0);
  });

  it('counts callback attempts by outcome: a refused attempt is a retry, a 2xx is delivered', async () => {
    status = 500;
    await deliver();
    let text = await scrape();
    expect(sample(text, 'recognition_callback_deliveries_total{outcome="retry"}')).toBe(1);
    status = 200;
    h.clock.advance(60_000);
    await deliver();
    text = await scrape();
    expect(sample(text, 'recognition_callback_deliveries_total{outcome="delivered"}')).toBe(1);
  });

  it('records request durations by route pattern, never by the raw URL', async () => {
    await h.app.inject({ method: 'GET', url: '/api/v1/documents/doc_missing', headers: { 'x-api-key': h.keyA } });
    const text = await scrape();
    expect(text).toContain('recognition_http_request_duration_seconds_count{method="GET",route="/api/v1/documents/:id",status="404"} 1');
    expect(text).not.toContain('doc_missing');
  });
});
