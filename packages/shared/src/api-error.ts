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

/**
 * Freezes a service's error table and answers the status of a code, so the table is the only place a status is
 * written. `defineErrorTable({NOT_FOUND: 404}).statusOf('NOT_FOUND')` is 404.
 */
export function defineErrorTable<const T extends ErrorTable>(table: T): { readonly table: T; statusOf(code: keyof T & string): number } {
  const frozen = Object.freeze({ ...table });
  return { table: frozen, statusOf: (code) => frozen[code] as number };
}
