/**
 * The one error table of the recognition service: every error code with its HTTP status.
 * Spec: document-recognition-api.md, Errors. `RECOGNITION_FAILED` names the spec's unnamed 422 of a failed
 * synchronous recognition and `RECOGNITION_TIMEOUT` the one whose ~35 s deadline passed (document `failed`);
 * the rest are ours: `HIGH_PRIORITY_BUSY` (503 + Retry-After: every high-lane slot is taken, nothing stored),
 * protocol-level refusals rendered in the same envelope (400, 408, 414, 431), 500 and 503.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  NOT_FOUND: 404,
  DOCUMENT_NOT_READY: 409,
  VALIDATION_ERROR: 422,
  RECOGNITION_FAILED: 422,
  RECOGNITION_TIMEOUT: 422,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  HIGH_PRIORITY_BUSY: 503,
} as const;

/** Every error code the recognition API answers with. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * A domain error rendered as `{error: {code, message}}` with the table's status. `message` is sent to the
 * caller, so it must never carry internals; for VALIDATION_ERROR it starts with the bad parameter's name.
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. `{'retry-after': '5'}` for HIGH_PRIORITY_BUSY. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

/** 422 VALIDATION_ERROR whose message names the parameter, e.g. `invalid('callback_url', 'at most 500 characters')`. */
export function invalid(param: string, why: string): ApiError {
  return new ApiError('VALIDATION_ERROR', `${param}: ${why}`);
}

/** 404 NOT_FOUND for a missing document or one owned by another key (Spec: Authentication, rule 3). */
export const notFound = (): ApiError => new ApiError('NOT_FOUND', 'document not found');
