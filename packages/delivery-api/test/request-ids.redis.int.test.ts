/**
 * The Redis store for single-use request ids and the shared per-phone loyalty limit (REDIS_URL). This file is
 * included by vitest.config.ts only when REDIS_URL is set (`.ci/run` sets it after starting the local Redis), so
 * `npm test` without Redis neither runs nor skips it. Every test writes under its own key prefix.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildSignedHeaders, randomIds, signRequest } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRequestIds } from '../src/auth/request-ids.redis.js';
import { PhoneRateLimit } from '../src/checkout/phone-rate-limit.js';
import { openRedis, redisReady, type RedisDeps } from '../src/redis/redis-client.js';
import { makeWorld, type World } from './harness.js';
import { requestIdContract } from './support/request-id-contract.js';

const REDIS_URL = process.env.REDIS_URL as string;
const clients: RedisDeps[] = [];
const prefix = () => `test:${randomUUID()}:`;

/** A connected client under a fresh key prefix. */
async function live(keyPrefix = prefix()): Promise<RedisDeps> {
  const r = openRedis({ url: REDIS_URL, commandTimeoutMs: 500, keyPrefix });
  clients.push(r);
  await redisReady(r.client);
  return r;
}

/** A client to a port where nothing listens: connection refused. */
function refused(): RedisDeps {
  const r = openRedis({ url: `redis://127.0.0.1:${refusedPort}`, commandTimeoutMs: 100, keyPrefix: prefix() });
  clients.push(r);
  return r;
}

// A TCP server that accepts connections and never answers: a Redis that hangs (timeouts).
let silent: Server;
const silentSockets: Socket[] = [];
let refusedPort: number;
beforeAll(async () => {
  silent = createServer((s) => silentSockets.push(s));
  await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
  refusedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((ok) => probe.close(() => ok()));
});
afterAll(async () => {
  for (const c of clients) c.client.disconnect();
  for (const s of silentSockets) s.destroy();
  await new Promise<void>((ok) => silent.close(() => ok()));
});

describe('RedisRequestIds: the single-use request-id contract', () => {
  requestIdContract({
    fresh: async () => {
      const r = await live();
      return new RedisRequestIds(r.client, r.keyPrefix);
    },
    unavailable: async () => {
      const r = refused();
      return new RedisRequestIds(r.client, r.keyPrefix);
    },
  });

  it('a Redis that accepts the connection but does not answer fails within the command timeout', async () => {
    const r = openRedis({ url: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}`, commandTimeoutMs: 100, keyPrefix: prefix() });
    clients.push(r);
    await expect(
      new RedisRequestIds(r.client, r.keyPrefix).consume('key-aaaa', randomUUID(), new Date(), new Date(Date.now() + 600_000)),
    ).rejects.toThrow();
  });

  it('stores `<prefix>rid:<key>:<lower-case id>` with the TTL expiresAt − now (SET NX PX)', async () => {
    const r = await live();
    const id = randomUUID().toUpperCase();
    const now = new Date('2026-11-23T09:00:00Z');
    expect(await new RedisRequestIds(r.client, r.keyPrefix).consume('key-aaaa', id, now, new Date(now.getTime() + 600_000))).toBe(true);
    const ttl = await r.client.pttl(`${r.keyPrefix}rid:key-aaaa:${id.toLowerCase()}`);
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });
});

describe('Signed requests with the Redis store', () => {
  let w: World;
  let down: World;
  beforeAll(async () => {
    w = await makeWorld({ redis: await live() });
    down = await makeWorld({ redis: refused() });
  });
  afterAll(async () => {
    for (const x of [w, down]) {
      await x.app.close();
      await x.db.close();
    }
  });

  const signed = (x: World, requestId: string) => {
    const ts = String(Math.floor(x.clock.now().getTime() / 1000));
    const sig = signRequest(x.partner.apiSecret, { timestamp: ts, requestId, method: 'GET', path: '/v1/points', body: '' });
    return { 'X-API-Key': x.partner.apiKey, 'X-Timestamp': ts, 'X-Request-ID': requestId, 'X-Signature': sig };
  };

  it('a used id is 401 again, also re-sent in upper case and re-signed', async () => {
    const id = randomUUID();
    expect((await w.app.inject({ method: 'GET', url: '/v1/points', headers: signed(w, id) })).statusCode).toBe(200);
    const again = await w.app.inject({ method: 'GET', url: '/v1/points', headers: signed(w, id) });
    expect(again.statusCode).toBe(401);
    const upper = await w.app.inject({ method: 'GET', url: '/v1/points', headers: signed(w, id.toUpperCase()) });
    expect(upper.statusCode).toBe(401);
    expect(upper.json()).toEqual({ error: 'unauthorized' });
  });

  it('Redis refusing connections: 503 authentication_unavailable', async () => {
    const h = buildSignedHeaders({
      apiKey: down.partner.apiKey,
      secret: down.partner.apiSecret,
      method: 'GET',
      path: '/v1/points',
      body: '',
      requestId: randomIds.uuid(),
      now: down.clock.now(),
    });
    const r = await down.app.inject({ method: 'GET', url: '/v1/points', headers: { ...h } });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ error: 'authentication_unavailable' });
  });
});

describe('PhoneRateLimit with Redis', () => {
  it('30 per minute per phone shared by two instances: the 31st is refused by either', async () => {
    const r = await live();
    const a = new PhoneRateLimit(30, r);
    const b = new PhoneRateLimit(30, { client: (await live(r.keyPrefix)).client, keyPrefix: r.keyPrefix });
    for (let i = 0; i < 15; i++) {
      await a.consume('+79990000001');
      await b.consume('+79990000001');
    }
    await expect(a.consume('+79990000001')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(b.consume('+79990000001')).rejects.toMatchObject({ code: 'rate_limited' });
    await b.consume('+79990000002'); // another phone has its own count
  });

  it('falls back to the instance memory when Redis does not answer', async () => {
    const limit = new PhoneRateLimit(30, refused());
    for (let i = 0; i < 30; i++) await limit.consume('+79990000001');
    await expect(limit.consume('+79990000001')).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
