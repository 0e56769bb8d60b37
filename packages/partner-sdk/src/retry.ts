import { PartnerApiError, PartnerConnectionError, PartnerTimeoutError } from './errors.js';

/** Retry settings of {@link PartnerClient}. Times in milliseconds. */
export interface RetryOptions {
  /** Extra attempts after the first (default 2; 0 = never retry). */
  maxRetries: number;
  /** First back-off step (default 500); the n-th retry waits a random time up to base × 2^n, at most `maxDelayMs`. */
  baseDelayMs: number;
  /** Longest wait between attempts, also for a server's Retry-After (default 60 000: the spec's 429 asks 60 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 60_000 };

/** A call that is safe to send again: a read, a side-effect-free calculation, or an order (idempotent by body). */
export function isSafeToRepeat(method: string, path: string): boolean {
  if (method === 'GET') return true;
  // POST /v1/orders is idempotent by (source, externalOrderId) with the same body (spec: POST /v1/orders rule 1);
  // calculate, resolve and address check change nothing. Cancel is not repeated blindly (spec: Errors, last line).
  return ['/v1/orders', '/v1/checkout/calculate', '/v1/delivery/resolve', '/v1/addresses/check'].includes(path);
}

/**
 * The one retry rule of the SDK. Returns whether to try again and whether the same X-Request-ID may be reused:
 * - 503 authentication_unavailable: the id was not consumed; the spec says repeat with the same X-Request-ID (any call);
 * - connection failures and timeouts, 500 internal_error, 503 loyalty_unavailable, 409 hold_in_progress and
 *   429 rate_limited: only for calls safe to repeat, each time with a new X-Request-ID;
 * - anything else (4xx contract errors, price_changed, cancel_rejected, unknown codes): never.
 */
export function retryDecision(err: unknown, method: string, path: string): { retry: boolean; sameRequestId: boolean } {
  if (err instanceof PartnerApiError && err.code === 'authentication_unavailable') return { retry: true, sameRequestId: true };
  if (!isSafeToRepeat(method, path)) return { retry: false, sameRequestId: false };
  if (err instanceof PartnerConnectionError || err instanceof PartnerTimeoutError) return { retry: true, sameRequestId: false };
  if (err instanceof PartnerApiError) {
    const again = ['internal_error', 'loyalty_unavailable', 'hold_in_progress', 'rate_limited'].includes(err.code);
    return { retry: again, sameRequestId: false };
  }
  return { retry: false, sameRequestId: false };
}

/**
 * Milliseconds to wait before retry number `attempt` (1-based): the server's Retry-After (seconds) when given,
 * else "full jitter" back-off (a random share of base × 2^(attempt-1)), both capped at `maxDelayMs`.
 */
export function retryDelayMs(attempt: number, retryAfter: string | null | undefined, o: RetryOptions, random: () => number): number {
  const seconds = retryAfter != null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : null;
  if (seconds !== null) return Math.min(seconds * 1000, o.maxDelayMs);
  return Math.floor(random() * Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (attempt - 1)));
}
