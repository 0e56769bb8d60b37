import { RateLimiterMemory } from 'rate-limiter-flexible';
import { ApiError } from '../errors.js';

/** Loyalty requests per guest phone: 30 per minute, in memory per instance. Spec: Limits, 429 rate_limited. */
export const LOYALTY_REQUESTS_PER_MINUTE = 30;

/**
 * Counts loyalty requests per phone (checkout calculation and order creation with loyalty).
 * @throws ApiError rate_limited (429, `Retry-After: 60`) when the phone exceeded the limit.
 */
export class PhoneRateLimit {
  private readonly limiter: RateLimiterMemory;

  /** @param perMinute requests per phone per minute (the spec's 30; tests of other rules raise it). */
  constructor(private readonly perMinute = LOYALTY_REQUESTS_PER_MINUTE) {
    this.limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
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
