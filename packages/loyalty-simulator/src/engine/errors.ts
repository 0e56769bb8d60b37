/**
 * Error codes the simulator answers with, in the iiko style `{error, errorDescription}`. The HTTP status is
 * part of the code's meaning so the fake (which skips HTTP) and the server agree.
 */
export const SIM_ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  ORGANIZATION_NOT_CONNECTED: 403,
  CUSTOMER_NOT_FOUND: 400,
  COUPON_INVALID: 400,
  CERTIFICATE_INVALID: 400,
  INSUFFICIENT_BALANCE: 400,
  HOLD_NOT_FOUND: 404,
  HOLD_STATE: 409,
  IDEMPOTENCY_CONFLICT: 409,
  REJECTED: 400,
  WRITE_LIMIT: 429,
} as const;

export type SimErrorCode = keyof typeof SIM_ERROR_STATUS;

/** A refusal of the simulated loyalty service. `retryAfterSeconds` is set for WRITE_LIMIT. */
export class SimError extends Error {
  readonly status: number;
  constructor(
    readonly code: SimErrorCode,
    message: string = code,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.status = SIM_ERROR_STATUS[code];
  }
}
