/**
 * Switchable faults of the simulated Diadoc API, for tests and demos:
 * - `expired-token`: 401 as for an expired access token (the client must refresh and retry);
 * - `subscription-required`: 402 (the box has no API subscription);
 * - `forbidden`: 403 (no access to the box);
 * - `rate-limit`: 429 with nginx's HTML body and `Retry-After`;
 * - `server-error`: a 5xx (`status`, default 500) with a plain-text body;
 * - `slow`: the answer is delayed by `delayMs`;
 * - `post-in-progress`: PostMessage answers 204 + `Retry-After` (the same operationId is still being processed).
 */
export type FaultKind = 'expired-token' | 'subscription-required' | 'forbidden' | 'rate-limit' | 'server-error' | 'slow' | 'post-in-progress';

export interface Fault {
  kind: FaultKind;
  /** How many requests it hits (default: every request until cleared). */
  times?: number;
  /** Only requests whose path starts with this, e.g. `/V3/GetDocuments` (default: all API paths). */
  path?: string;
  /** `server-error`: the status, default 500. */
  status?: number;
  /** `slow`: delay in ms, default 5000. */
  delayMs?: number;
  /** `rate-limit` / `post-in-progress`: Retry-After seconds, default 30 / 5. */
  retryAfter?: number;
}

/** The active faults; the first matching one applies to a request and uses up one of its `times`. */
export class Faults {
  private list: Fault[] = [];

  add(fault: Fault): void {
    this.list.push({ ...fault });
  }

  clear(): void {
    this.list = [];
  }

  get active(): readonly Fault[] {
    return this.list;
  }

  /** The fault that hits this request (decrementing it), or undefined. */
  take(path: string): Fault | undefined {
    const i = this.list.findIndex((f) => !f.path || path.startsWith(f.path));
    if (i < 0) return undefined;
    const f = this.list[i]!;
    if (f.times !== undefined && --f.times <= 0) this.list.splice(i, 1);
    return f;
  }
}
