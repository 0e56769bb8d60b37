import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../errors.js';
import type { RedisDeps } from '../redis/redis-client.js';

/** Loyalty requests per guest phone: 30 per minute. Spec: Limits, 429 rate_limited. */
export const LOYALTY_REQUESTS_PER_MINUTE = 30;

/**
 * Counts loyalty requests per phone (checkout calculation and order creation with loyalty). With Redis the count
 * is shared by every instance using it (`<prefix>phone:<phone>`); without Redis each instance counts in memory.
 * When Redis fails or does not answer in time the instance falls back to its own memory count for that request
 * (rate-limiter-flexible's insurance limiter): the limit protects the loyalty service and must not stop checkout.
 * @throws ApiError rate_limited (429, `Retry-After: 60`) when the phone exceeded the limit.
 */
export class PhoneRateLimit {
  private readonly limiter: RateLimiterAbstract;

  /**
   * @param perMinute requests per phone per minute (the spec's 30; tests of other rules raise it).
   * @param redis shared store; absent = memory of this instance.
   */
  constructor(
    private readonly perMinute = LOYALTY_REQUESTS_PER_MINUTE,
    redis?: RedisDeps | null,
  ) {
    const memory = new RateLimiterMemory({ points: perMinute, duration: 60 });
    this.limiter = redis
      ? new RateLimiterRedis({
          storeClient: redis.client,
          keyPrefix: `${redis.keyPrefix}phone`,
          points: perMinute,
          duration: 60,
          insuranceLimiter: memory,
        })
      : memory;
  }

  async consume(phone: string): Promise<void> {
    try {
      await this.limiter.consume(phone);
    } catch (rej) {
      if (rej instanceof Error) throw rej;
      throw new ApiError('rate_limited', {}, `more than ${this.perMinute} loyalty requests per minute`, { 'Retry-After': '60' });
    }
  }
}
