import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisDeps } from '../redis/redis-client.js';

/** The spec's planned general limits (Limits): requests per minute per API key and per client IP. */
export const REQUESTS_PER_MINUTE_PER_KEY = 600;
export const REQUESTS_PER_MINUTE_PER_IP = 100;

/** The limits in force, per minute (tests pass small ones). */
export interface PartnerLimits {
  perKey: number;
  perIp: number;
}

/** What one request's check found: the tighter of the two limits, as the X-RateLimit-* headers show it. */
export interface RateLimitState {
  /** Requests allowed per window by the tighter limit. */
  limit: number;
  /** Requests left in the current window of the tighter limit (0 when refused). */
  remaining: number;
  /** Whole seconds until that window resets (at least 1). */
  resetSeconds: number;
  /** True when either limit is exceeded: the request is refused with 429 and `Retry-After: resetSeconds`. */
  limited: boolean;
}

/**
 * Fixed one-minute windows per key and per IP (rate-limiter-flexible). With Redis the counts are shared by every
 * instance (`<prefix>rl:key:<apiKey>`, `<prefix>rl:ip:<ip>`); without Redis each instance counts in its own memory,
 * so N instances allow up to N times the limit. When Redis fails or is slow a request is counted in this instance's
 * memory instead (insurance limiter): the limit protects the service and must not take it down with Redis.
 */
export class PartnerRateLimit {
  private readonly byKey: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;

  constructor(
    private readonly limits: PartnerLimits = { perKey: REQUESTS_PER_MINUTE_PER_KEY, perIp: REQUESTS_PER_MINUTE_PER_IP },
    redis?: RedisDeps | null,
  ) {
    this.byKey = limiter('key', limits.perKey, redis);
    this.byIp = limiter('ip', limits.perIp, redis);
  }

  /** Counts one request of `apiKey` from `ip` against both limits. Never throws for a refusal: see `limited`. */
  async check(apiKey: string, ip: string): Promise<RateLimitState> {
    const [k, i] = await Promise.all([consume(this.byKey, apiKey), consume(this.byIp, ip)]);
    const keyState = state(k, this.limits.perKey);
    const ipState = state(i, this.limits.perIp);
    // report the limit that refuses, else the one with fewer requests left
    const tighter =
      keyState.limited !== ipState.limited ? (keyState.limited ? keyState : ipState) : keyState.remaining <= ipState.remaining ? keyState : ipState;
    return tighter;
  }
}

function limiter(kind: 'key' | 'ip', points: number, redis?: RedisDeps | null): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix: `rl:${kind}`, points, duration: 60 });
  return redis
    ? new RateLimiterRedis({ storeClient: redis.client, keyPrefix: `${redis.keyPrefix}rl:${kind}`, points, duration: 60, insuranceLimiter: memory })
    : memory;
}

async function consume(l: RateLimiterAbstract, key: string): Promise<{ res: RateLimiterRes; limited: boolean }> {
  try {
    return { res: await l.consume(key), limited: false };
  } catch (rej) {
    if (rej instanceof RateLimiterRes) return { res: rej, limited: true };
    throw rej;
  }
}

function state(c: { res: RateLimiterRes; limited: boolean }, limit: number): RateLimitState {
  return {
    limit,
    remaining: c.limited ? 0 : Math.max(0, c.res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(c.res.msBeforeNext / 1000)),
    limited: c.limited,
  };
}
