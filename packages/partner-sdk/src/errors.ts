/**
 * A non-success answer of the Delivery Partner API. `code` is the spec's `error` value (spec: Errors), or
 * `payload_too_large` for the plain-text 413, or `http_<status>` when the body carries no code (an unknown code
 * is not a success: store it and do not blindly repeat a non-idempotent call). `requestId` is the X-Request-ID
 * that was sent, for support.
 */
export class PartnerApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly body: unknown,
    readonly requestId: string,
  ) {
    super(`Delivery Partner API ${status} ${code} (X-Request-ID ${requestId})`);
    this.name = 'PartnerApiError';
  }

  /** True for the spec's retryable answers: 503 authentication_unavailable (same X-Request-ID is safe), 409 hold_in_progress, 429, 500. */
  get retryable(): boolean {
    return ['authentication_unavailable', 'hold_in_progress', 'rate_limited', 'internal_error', 'loyalty_unavailable'].includes(this.code);
  }
}

/** The one mapping of HTTP status + parsed body (or text) to {@link PartnerApiError}. */
export function toPartnerApiError(status: number, body: unknown, requestId: string): PartnerApiError {
  const fromBody = typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : undefined;
  const code = fromBody ?? (status === 413 ? 'payload_too_large' : `http_${status}`);
  return new PartnerApiError(status, code, body, requestId);
}
