import type { Redis } from 'ioredis';
import { normalizeRequestId, type RequestIdStore } from './request-id-store.port.js';

/**
 * Single-use X-Request-ID store in Redis, shared by every instance using the same Redis: one `SET key 1 NX PX ttl`
 * per request, atomic, so of two instances racing on one id exactly one sees it fresh. Keys are
 * `<prefix>rid:<apiKey>:<lower-case id>` and expire by themselves (no retention purge). Redis keeps its own clock for the
 * expiry: `expiresAt - now` is the time to live, at least 1 ms.
 * @throws (from consume) when Redis refuses the connection or does not answer within the client's command timeout.
 */
export class RedisRequestIds implements RequestIdStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  async consume(apiKey: string, requestId: string, now: Date, expiresAt: Date): Promise<boolean> {
    const ttlMs = Math.max(1, expiresAt.getTime() - now.getTime());
    const key = `${this.keyPrefix}rid:${apiKey}:${normalizeRequestId(requestId)}`;
    const r = await this.redis.set(key, '1', 'PX', ttlMs, 'NX');
    return r === 'OK';
  }
}
