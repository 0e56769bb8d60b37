import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSignedHeaders, randomIds } from '@app/shared';
import { addSource, makeWorld, type Key, type World } from '../harness.js';

let w: World;
/** Keys of source `app`, which has the `rate-limits` switch on. */
let appA: Key;
let appB: Key;

/** Small limits so a test reaches them in a few requests (the spec's 600/100 are the defaults). */
const PER_KEY = 5;
const PER_IP = 8;

beforeAll(async () => {
  w = await makeWorld({ partnerLimits: { perKey: PER_KEY, perIp: PER_IP } });
  appA = await addSource(w, 'app', { pointIds: ['1'], features: 'rate-limits' });
  appB = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'app', pointIds: ['1'] });
}, 120_000);
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

/** A signed request from a given client address. */
function send(key: Key, ip: string, method: 'GET' | 'POST', url: string, body = '') {
  const headers = buildSignedHeaders({
    apiKey: key.apiKey,
    secret: key.apiSecret,
    method,
    path: url.split('?')[0],
    body,
    requestId: randomIds.uuid(),
    now: w.clock.now(),
  });
  return w.app.inject({
    method,
    url,
    remoteAddress: ip,
    payload: method === 'POST' ? body : undefined,
    headers: { ...headers, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
  });
}

describe('general limits, switch rate-limits off (the spec: planned, not in force)', () => {
  it('counts nothing and sends no X-RateLimit headers', async () => {
    for (let i = 0; i < PER_KEY + PER_IP; i++) {
      const r = await send(w.partner, '10.0.0.1', 'GET', '/v1/points');
      expect(r.statusCode).toBe(200);
      expect(r.headers['x-ratelimit-limit']).toBeUndefined();
      expect(r.headers['retry-after']).toBeUndefined();
    }
  });
});

describe('general limits, switch rate-limits on', () => {
  it('sends X-RateLimit-Limit, -Remaining and -Reset, then 429 rate_limited with Retry-After past the per-key limit', async () => {
    const seen: number[] = [];
    for (let i = 0; i < PER_KEY; i++) {
      const r = await send(appA, '10.0.1.1', 'GET', '/v1/points');
      expect(r.statusCode).toBe(200);
      expect(r.headers['x-ratelimit-limit']).toBe(String(PER_KEY));
      const reset = Number(r.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
      seen.push(Number(r.headers['x-ratelimit-remaining']));
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    const refused = await send(appA, '10.0.1.1', 'GET', '/v1/points');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('counts per key: another key of the same source still has its own budget', async () => {
    const r = await send(appB, '10.0.2.1', 'GET', '/v1/points');
    expect(r.statusCode).toBe(200);
    expect(r.headers['x-ratelimit-remaining']).toBe(String(PER_KEY - 1));
  });

  it('counts per IP across keys: the IP limit refuses when the keys still have budget', async () => {
    const ip = '10.0.3.1';
    const c = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'app', pointIds: ['1'] });
    const d = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'app', pointIds: ['1'] });
    for (let i = 0; i < 4; i++) expect((await send(c, ip, 'GET', '/v1/points')).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await send(d, ip, 'GET', '/v1/points')).statusCode).toBe(200);
    const refused = await send(d, ip, 'GET', '/v1/points');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe(String(PER_IP));
    // another address is not refused by that IP's count (key c still has one request left)
    expect((await send(c, '10.0.3.2', 'GET', '/v1/points')).statusCode).toBe(200);
  });

  it('puts the headers on error answers of counted requests too', async () => {
    const e = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'app', pointIds: ['1'] });
    const r = await send(e, '10.0.4.1', 'GET', '/v1/points/2/status');
    expect(r.statusCode).toBe(403);
    expect(r.headers['x-ratelimit-limit']).toBe(String(PER_KEY));
    const bad = await send(e, '10.0.4.1', 'POST', '/v1/delivery/resolve', '{"unknown":1}');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['x-ratelimit-remaining']).toBe(String(PER_KEY - 2));
  });

  it('does not limit or count POS routes', async () => {
    for (let i = 0; i < PER_IP + 1; i++) {
      const r = await send(w.pos['1'], '10.0.1.1', 'POST', '/pos/v1/heartbeat', '{}');
      expect(r.statusCode).toBe(200);
      expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});
