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

  /**
   * True for answers worth repeating: 503 authentication_unavailable (with the same X-Request-ID), and for calls
   * that are safe to repeat 409 hold_in_progress, 429 rate_limited, 500 internal_error, 503 loyalty_unavailable,
   * each with a new X-Request-ID. The client already retried these (`maxRetries`) before throwing.
   */
  get retryable(): boolean {
    return ['authentication_unavailable', 'hold_in_progress', 'rate_limited', 'internal_error', 'loyalty_unavailable'].includes(this.code);
  }

  /** The server's Retry-After in seconds, when it sent one (429 rate_limited sends 60). */
  get retryAfterSeconds(): number | null {
    return this.retryAfter != null && /^\d+$/.test(this.retryAfter) ? Number(this.retryAfter) : null;
  }

  /** Retry-After header as sent. */
  retryAfter: string | null = null;
}

/** The request never got an answer: connection refused or reset, DNS failure. `requestId` was sent (or about to be). */
export class PartnerConnectionError extends Error {
  constructor(
    readonly requestId: string,
    options?: { cause?: unknown },
  ) {
    super(`Delivery Partner API unreachable (X-Request-ID ${requestId})`, options);
    this.name = 'PartnerConnectionError';
  }
}

/** No answer within the client's `timeoutMs`. The server may have acted: repeat only what is safe to repeat. */
export class PartnerTimeoutError extends Error {
  constructor(
    readonly requestId: string,
    readonly timeoutMs: number,
  ) {
    super(`Delivery Partner API did not answer within ${timeoutMs} ms (X-Request-ID ${requestId})`);
    this.name = 'PartnerTimeoutError';
  }
}

/** The one mapping of HTTP status + parsed body (or text) to {@link PartnerApiError}. */
export function toPartnerApiError(status: number, body: unknown, requestId: string, retryAfter: string | null = null): PartnerApiError {
  const fromBody =
    typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string }).error
      : undefined;
  const code = fromBody ?? (status === 413 ? 'payload_too_large' : `http_${status}`);
  const err = new PartnerApiError(status, code, body, requestId);
  err.retryAfter = retryAfter;
  return err;
}
