import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, SequentialIds } from '@app/shared';
import {
  DEFAULT_RETRY,
  PartnerApiError,
  PartnerClient,
  PartnerConnectionError,
  PartnerTimeoutError,
  retryDelayMs,
  type OrderRequest,
} from '../src/index.js';
import { startSignedServer, type Answer, type SeenRequest } from './signed-server.js';

const KEY = { apiKey: 'demo-key-0001', apiSecret: 'demo-secret-0123456789abcdef0123456789' };
const clock = new ManualClock('2026-11-23T09:00:00Z');
const ids = new SequentialIds();
let server: Awaited<ReturnType<typeof startSignedServer>>;
let answers: Answer[] = [];
beforeAll(async () => {
  server = await startSignedServer({
    ...KEY,
    now: () => clock.now(),
    route: (_r: SeenRequest) => answers.shift() ?? { status: 200, json: { ok: true } },
  });
});
afterAll(async () => server.close());

/** A client whose waits are recorded instead of slept, with jitter fixed at half the window. */
function client(over: Partial<ConstructorParameters<typeof PartnerClient>[0]> = {}) {
  const waits: number[] = [];
  const c = new PartnerClient({ baseUrl: server.baseUrl, ...KEY, clock, ids, sleep: async (ms) => void waits.push(ms), random: () => 0.5, ...over });
  return { c, waits };
}
const sent = (n: number) => server.seen.slice(-n).map((r) => r.headers['x-request-id']);
const order: OrderRequest = {
  schemaVersion: 1,
  source: 'website',
  externalOrderId: 'R-1',
  externalPointId: '101',
  guest: { name: 'Анна', phone: '+79990001122' },
  deliveryType: 'courier',
  address: { street: 'Тверская', house: '1' },
  items: [],
  total: { amountMinor: 0, currency: 'RUB' },
};

describe('PartnerClient retries (safe calls only, jittered back-off, Retry-After)', () => {
  it('a read is retried after 500 internal_error with a new X-Request-ID and jittered back-off', async () => {
    answers = [
      { status: 500, json: { error: 'internal_error' } },
      { status: 500, json: { error: 'internal_error' } },
      { status: 200, json: { points: [] } },
    ];
    const { c, waits } = client();
    expect(await c.listPoints()).toEqual([]);
    expect(waits).toEqual([250, 500]); // random 0.5 × 500 × 2^0, × 2^1
    expect(new Set(sent(3)).size).toBe(3);
  });

  it('POST /v1/orders (same body) is retried on 409 hold_in_progress and honours Retry-After of a 429', async () => {
    answers = [
      { status: 409, json: { error: 'hold_in_progress' } },
      { status: 429, json: { error: 'rate_limited' }, headers: { 'retry-after': '60' } },
      { status: 201, json: { id: 'o1' } },
    ];
    const { c, waits } = client();
    expect((await c.createOrder(order)).status).toBe(201);
    expect(waits).toEqual([250, 60_000]);
    expect(server.seen.slice(-3).map((r) => r.body)).toEqual(Array(3).fill(JSON.stringify(order)));
  });

  it('503 authentication_unavailable is repeated with the same X-Request-ID, also for a cancel', async () => {
    answers = [
      { status: 503, json: { error: 'authentication_unavailable' } },
      { status: 200, json: { id: 'o1', state: 'cancelled' } },
    ];
    const { c } = client();
    await c.cancelOrder('5d0f1c2a-3b4c-4d5e-8f60-718293a4b5c6', { reason: 'guest_request', comment: '' });
    const [a, b] = sent(2);
    expect(a).toBe(b);
  });

  it('never repeats a cancel on 500, nor any contract error, nor beyond maxRetries', async () => {
    answers = [{ status: 500, json: { error: 'internal_error' } }];
    const { c, waits } = client();
    await expect(c.cancelOrder('5d0f1c2a-3b4c-4d5e-8f60-718293a4b5c6', { reason: 'guest_request', comment: '' })).rejects.toMatchObject({
      code: 'internal_error',
    });
    answers = [{ status: 409, json: { error: 'price_changed', calculation: {} } }];
    await expect(c.createOrder(order)).rejects.toMatchObject({ code: 'price_changed' });
    answers = Array(5).fill({ status: 503, json: { error: 'loyalty_unavailable' } });
    const before = server.seen.length;
    await expect(client({ maxRetries: 1 }).c.createOrder(order)).rejects.toBeInstanceOf(PartnerApiError);
    expect(server.seen.length - before).toBe(2);
    expect(waits).toEqual([]);
    answers = [];
  });

  it('connection failures and timeouts are distinct errors; safe calls are retried', async () => {
    const refused = client({ baseUrl: 'http://127.0.0.1:1', maxRetries: 1 });
    await expect(refused.c.listPoints()).rejects.toBeInstanceOf(PartnerConnectionError);
    expect(refused.waits).toHaveLength(1);
    let calls = 0;
    const slow = client({
      maxRetries: 2,
      timeoutMs: 5,
      fetch: async () => {
        calls++;
        throw Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
      },
    });
    const e = await slow.c.listPoints().catch((x) => x);
    expect(e).toBeInstanceOf(PartnerTimeoutError);
    expect(e).toMatchObject({ timeoutMs: 5 });
    expect(calls).toBe(3);
    const cancel = client({ baseUrl: 'http://127.0.0.1:1' });
    await expect(cancel.c.cancelOrder('5d0f1c2a-3b4c-4d5e-8f60-718293a4b5c6', { reason: 'other', comment: '' })).rejects.toBeInstanceOf(
      PartnerConnectionError,
    );
    expect(cancel.waits).toEqual([]); // a cancel is never repeated blindly
  });

  it('Retry-After is capped; back-off grows by attempt and never exceeds the cap', () => {
    expect(retryDelayMs(1, '3600', DEFAULT_RETRY, () => 0.5)).toBe(60_000);
    expect(retryDelayMs(3, null, DEFAULT_RETRY, () => 0.999)).toBe(1998);
    expect(retryDelayMs(30, null, DEFAULT_RETRY, () => 0.999)).toBe(59_940);
  });
});
