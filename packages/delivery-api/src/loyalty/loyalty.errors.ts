import { LoyaltyError, type LoyaltyErrorReason } from './loyalty.port.js';

/** Service error code (iiko style `{error: CODE}`) → reason of a `rejected` LoyaltyError. */
const REJECT_REASONS: Record<string, LoyaltyErrorReason> = {
  COUPON_INVALID: 'coupon_invalid',
  INSUFFICIENT_BALANCE: 'insufficient_balance',
  CERTIFICATE_INVALID: 'certificate_invalid',
  CUSTOMER_NOT_FOUND: 'guest_not_found',
  HOLD_NOT_FOUND: 'hold_not_found',
  HOLD_STATE: 'hold_state',
  IDEMPOTENCY_CONFLICT: 'idempotency_conflict',
  REJECTED: 'rejected',
  BAD_REQUEST: 'rejected',
};

/** Retry-After when the service sends none or an unreadable one; the spec's own limit answers 60. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

/**
 * The one mapping from a loyalty-service answer to the port's error, shared by the HTTP adapter and the fake
 * so both fail the same way. `code` is the body's `error` field (may be absent), `status` the HTTP status.
 * Rules: not connected / 5xx / 401 / unexpected statuses → `unavailable`; 429 → `rate_limited`;
 * other 4xx → `rejected` with the reason named by the code.
 */
export function serviceError(status: number, code: string | undefined, message: string, retryAfter?: string | null): LoyaltyError {
  if (code === 'ORGANIZATION_NOT_CONNECTED') return new LoyaltyError('unavailable', 'not_connected', message);
  if (status === 429) return new LoyaltyError('rate_limited', 'write_limit', message, parseRetryAfter(retryAfter));
  if (status >= 500) return new LoyaltyError('unavailable', 'server_error', `HTTP ${status}: ${message}`);
  if (status === 401 || status === 403) return new LoyaltyError('unavailable', 'auth', message);
  if (status >= 400) return new LoyaltyError('rejected', (code && REJECT_REASONS[code]) || 'rejected', message);
  return new LoyaltyError('unavailable', 'bad_response', `unexpected HTTP ${status}`);
}

/** Retry-After in seconds (integer form; the HTTP-date form is not used by the service) → seconds ≥ 1. */
export function parseRetryAfter(v: string | null | undefined): number {
  const n = v ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.max(1, Math.ceil(n)) : DEFAULT_RETRY_AFTER_SECONDS;
}
