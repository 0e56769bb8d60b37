/**
 * The one error table of the recognition service: every error code with its HTTP status.
 * Spec: document-recognition-api.md, Errors. `RECOGNITION_FAILED` names the spec's unnamed 422 of a failed
 * synchronous recognition and `RECOGNITION_TIMEOUT` the one whose ~35 s deadline passed (document `failed`);
 * the rest are ours: `HIGH_PRIORITY_BUSY` (503 + Retry-After: every high-lane slot is taken, nothing stored),
 * protocol-level refusals rendered in the same envelope (400, 408, 414, 431), 500 and 503, `FORBIDDEN` (a key
 * without the scope of the route) and the `EDO_*` codes of the e-document gateway (the spec says "Error codes of
 * the e-document gateway: not shown"; see docs/edo-gateway.md).
 */
import { defineErrorTable, errorClass } from '@app/shared';

export const ERROR_STATUS = defineErrorTable({
  BAD_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  NOT_FOUND: 404,
  DOCUMENT_NOT_READY: 409,
  /** POST …/callbacks/resend for a document uploaded without `callback_url` (docs/decisions.md "Resend and idempotency codes"). */
  CALLBACK_NOT_CONFIGURED: 409,
  /** POST …/callbacks/resend while the callback's attempt series is still pending (docs/decisions.md "Resend and idempotency codes"). */
  CALLBACK_IN_PROGRESS: 409,
  /** POST /recognize: the Idempotency-Key came with different files or parameters within 24 h (docs/decisions.md "Resend and idempotency codes"). */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** POST /recognize: the first priority=high request with this Idempotency-Key has not finished yet (docs/decisions.md "Resend and idempotency codes"). */
  IDEMPOTENCY_KEY_IN_USE: 409,
  VALIDATION_ERROR: 422,
  /** POST …/edo-draft of a document below 0.80 confidence without `checked: true` (docs/formalized-upload.md). */
  MANUAL_CHECK_REQUIRED: 422,
  RECOGNITION_FAILED: 422,
  RECOGNITION_TIMEOUT: 422,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  HIGH_PRIORITY_BUSY: 503,
  /** The API key lacks the scope of the route (`edo` for /api/v1/edo/*, `recognition` for the rest). */
  FORBIDDEN: 403,
  /** No operator connection is stored (recognition-admin edo set / admin panel). */
  EDO_NOT_CONFIGURED: 503,
  /** The operator or its identity provider refused our credentials (client, secret or refresh token). */
  EDO_UNAUTHORIZED: 502,
  /** The operator's 403: no access to the box, or the action needs a box administrator. */
  EDO_FORBIDDEN: 403,
  /** The operator's 402: the box has no (or an expired) API subscription. */
  EDO_SUBSCRIPTION_REQUIRED: 402,
  /** The operator's 404. */
  EDO_NOT_FOUND: 404,
  /** The operator's 409 (repeated delete, existing employee, …) or a send still in progress (204 + Retry-After). */
  EDO_CONFLICT: 409,
  /** The operator's 400: it refused a request that passed our validation. */
  EDO_BAD_REQUEST: 422,
  /** The operator's 429; the reply carries `Retry-After`. */
  EDO_RATE_LIMITED: 429,
  /** The operator's 413: the request is too large for it. */
  EDO_PAYLOAD_TOO_LARGE: 413,
  /** The operator's 405: the gateway called it with a verb it does not take (our defect; retrying will not help). */
  EDO_BAD_GATEWAY: 502,
  /** The operator is unreachable, timed out, answered 5xx or 410, or something it sent was unreadable. */
  EDO_UNAVAILABLE: 503,
});

/** Every error code the recognition API answers with. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * A domain error rendered as `{error: {code, message}}` with the table's status (the shared ApiError of
 * `@app/shared` bound to this table): `new ApiError(code, message, headers?)`; `headers` are extra response headers,
 * e.g. `{'retry-after': '5'}` for HIGH_PRIORITY_BUSY, EDO_RATE_LIMITED, EDO_CONFLICT. `message` is sent to the
 * caller, so it must never carry internals; for VALIDATION_ERROR it starts with the bad parameter's name.
 */
export class ApiError extends errorClass(ERROR_STATUS) {}

/** 422 VALIDATION_ERROR whose message names the parameter, e.g. `invalid('callback_url', 'at most 500 characters')`. */
export function invalid(param: string, why: string): ApiError {
  return new ApiError('VALIDATION_ERROR', `${param}: ${why}`);
}

/** 404 NOT_FOUND for a missing document or one owned by another key (Spec: Authentication, rule 3). */
export const notFound = (): ApiError => new ApiError('NOT_FOUND', 'document not found');
