/**
 * The error model both services share: a table from each stable error code to its HTTP status (the service's spec,
 * "Errors"), and one error class that carries the code, the table's status, extra response headers and extra body
 * fields. Each service renders the envelope its spec prescribes (delivery `{error: code, …extra}`, recognition
 * `{error: {code, message}}`) in its own error handler; the class and the table are the same.
 */

/** An error table: stable code → HTTP status. */
export type ErrorTable = Readonly<Record<string, number>>;

/**
 * A domain error with a stable code from a service's table. `message` is logged (and sent where the service's
 * envelope includes it); `headers` are added to the response (e.g. `retry-after`); `extra` fields are merged into
 * the body where the envelope allows it.
 */
export class ApiError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    /** HTTP status of `code` in the service's table. */
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The Retry-After of the answer in seconds, when it has one. */
  get retryAfter(): number | undefined {
    const v = this.headers['retry-after'];
    return v === undefined ? undefined : Number(v);
  }
}

/** Freezes a service's error table, so the table is the only place a status is written. */
export function defineErrorTable<const T extends ErrorTable>(table: T): Readonly<T> {
  return Object.freeze({ ...table });
}

/**
 * The ApiError class of one service: bound to its table, so `new X(code, message, headers?, extra?)` takes the
 * status from the table. A service extends it (`class ApiError extends errorClass(ERROR_STATUS) {}`), or overrides the
 * constructor where its call sites pass the arguments in another order.
 */
export function errorClass<const T extends ErrorTable>(table: T) {
  return class ServiceApiError extends ApiError<keyof T & string> {
    constructor(code: keyof T & string, message: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
      super(code, table[code] as number, message, headers, extra);
    }
  };
}
