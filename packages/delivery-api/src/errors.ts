/**
 * The one error table of the delivery service: every error code of the spec with its HTTP status.
 * Spec: delivery-partner-api.md, Errors (and the POS plugin protocol codes listed there).
 */
import { defineErrorTable, errorClass } from '@app/shared';

export const ERROR_STATUS = defineErrorTable({
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  idempotency_conflict: 409,
  price_changed: 409,
  hold_in_progress: 409,
  cancel_rejected: 409,
  invalid_or_expired_claim: 409,
  invalid_state_transition: 409,
  stable_id_mismatch: 409,
  route_mapping_not_found: 422,
  product_mapping_not_found: 422,
  product_not_orderable: 422,
  loyalty_rejected: 422,
  loyalty_unmapped: 422,
  invalid_phone: 400,
  rate_limited: 429,
  internal_error: 500,
  scope_violation: 500,
  authentication_unavailable: 503,
  loyalty_unavailable: 503,
  checkout_unavailable: 503,
});

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * A domain error with a stable spec code (the shared ApiError of `@app/shared` bound to this table). `extra` fields are merged into the body
 * (e.g. `calculation` for `price_changed`); `message` is logged, and sent only on the POS protocol.
 */
export class ApiError extends errorClass(ERROR_STATUS) {
  constructor(code: ErrorCode, extra: Record<string, unknown> = {}, message?: string, headers: Record<string, string> = {}) {
    super(code, message ?? code, headers, extra);
  }
}

/** Shorthand for the frequent 400. `why` names the bad field for logs and POS clients. */
export function invalid(why: string): ApiError {
  return new ApiError('invalid_request', {}, why);
}

/**
 * A refused operator or support command (CLI, not HTTP); the message says what to fix. Lives here, below the
 * features, so that features offering support commands (orders/order-support.ts) need not import operator/.
 */
export class OperatorError extends Error {}
