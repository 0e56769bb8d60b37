import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhook } from '@app/shared';
import { startDemoReceiver, type VerifiedWebhook } from '../src/index.js';
import { createFastifyReceiver } from '../src/examples/receiver-fastify.js';
import { createReceiver } from '../src/examples/receiver-node-http.js';
import { loadVectors } from './vectors.js';

const v = loadVectors()[0]!;
const SECRET = v.secret;

/** Posts the vector body signed now (the receivers use the real clock), optionally tampered after signing. */
async function post(url: string, tamper = false): Promise<{ status: number; body: string }> {
  const ts = String(Math.floor(Date.now() / 1000));
  const headers = {
    'content-type': 'application/json',
    'x-service-event-id': v.eventId,
    'x-service-timestamp': ts,
    'x-service-signature': signWebhook(SECRET, ts, v.eventId, v.body),
  };
  const res = await fetch(url, { method: 'POST', headers, body: tamper ? v.body.replace('queued', 'QUEUED') : v.body });
  return { status: res.status, body: await res.text() };
}

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => Promise.all(closers.map((c) => c())));

describe('receivers verify, de-duplicate by eventId and refuse tampered bodies', () => {
  it('demo receiver (startDemoReceiver) prints verified events once', async () => {
    const lines: string[] = [];
    const r = await startDemoReceiver({ port: 0, secret: SECRET, log: (l) => lines.push(l) });
    closers.push(() => r.close());
    expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    expect((await post(r.url)).status).toBe(204);
    expect((await post(r.url)).status).toBe(204);
    expect(r.events.map((e) => e.eventId)).toEqual([v.eventId]);
    expect(lines[0]).toContain(`order.state_changed order ${JSON.parse(v.body).order.id}`);
    expect(lines[1]).toContain('repeated');
    expect(await post(r.url, true)).toEqual({ status: 401, body: '{"error":"invalid_signature"}' });
    expect(lines[2]).toContain('refused: invalid_signature');
  });

  it('README node:http example', async () => {
    const handled: VerifiedWebhook[] = [];
    const server = createReceiver(SECRET, async (e) => void handled.push(e));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    );
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    expect((await post(url)).status).toBe(204);
    expect((await post(url)).status).toBe(204);
    expect(handled.map((e) => e.eventId)).toEqual([v.eventId]);
    expect(await post(url, true)).toEqual({ status: 400, body: '{"error":"invalid_signature"}' });
  });

  it('README Fastify example (raw-body parser)', async () => {
    const handled: VerifiedWebhook[] = [];
    const app = createFastifyReceiver(SECRET, async (e) => void handled.push(e));
    const url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/webhooks`;
    closers.push(() => app.close());
    expect((await post(url)).status).toBe(204);
    expect((await post(url)).status).toBe(204);
    expect(handled.map((e) => e.eventId)).toEqual([v.eventId]);
    expect((await post(url, true)).status).toBe(400);
  });

  it('the README shows both examples verbatim', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    for (const f of ['receiver-node-http.ts', 'receiver-fastify.ts']) {
      expect(readme).toContain(readFileSync(join(import.meta.dirname, '..', 'src', 'examples', f), 'utf8').trim());
    }
  });
});
