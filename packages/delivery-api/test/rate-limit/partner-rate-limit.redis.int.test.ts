/**
 * The general limits shared through Redis (REDIS_URL). Included by vitest.config.ts only when REDIS_URL is set.
 * Every test writes under its own key prefix.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { PartnerRateLimit } from '../../src/rate-limit/partner-rate-limit.js';
import { openRedis, redisReady, type RedisDeps } from '../../src/redis/redis-client.js';

const clients: RedisDeps[] = [];
async function live(keyPrefix: string): Promise<RedisDeps> {
  const r = openRedis({ url: process.env.REDIS_URL as string, commandTimeoutMs: 500, keyPrefix });
  clients.push(r);
  await redisReady(r.client);
  return r;
}
afterAll(() => {
  for (const c of clients) c.client.disconnect();
});

describe('general limits through Redis', () => {
  it('two instances share one count per key', async () => {
    const prefix = `test:${randomUUID()}:`;
    const a = new PartnerRateLimit({ perKey: 3, perIp: 100 }, await live(prefix));
    const b = new PartnerRateLimit({ perKey: 3, perIp: 100 }, await live(prefix));
    expect((await a.check('key-1', '10.0.0.1')).remaining).toBe(2);
    expect((await b.check('key-1', '10.0.0.2')).remaining).toBe(1);
    expect((await a.check('key-1', '10.0.0.3')).remaining).toBe(0);
    const refused = await b.check('key-1', '10.0.0.4');
    expect(refused.limited).toBe(true);
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
  });

  it('counts in memory when Redis refuses connections, so requests are still limited', async () => {
    const down = openRedis({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 100, keyPrefix: 'x:' });
    clients.push(down);
    const l = new PartnerRateLimit({ perKey: 2, perIp: 100 }, down);
    expect((await l.check('k', 'ip')).limited).toBe(false);
    expect((await l.check('k', 'ip')).limited).toBe(false);
    expect((await l.check('k', 'ip')).limited).toBe(true);
  });
});
