import { request, type Dispatcher } from 'undici';
import { serviceError } from './loyalty.errors.js';
import { LoyaltyError } from './loyalty.port.js';
import { expectShape, TokenAnswer } from './loyalty.wire.js';

/** Answers are small JSON documents; a larger one is a misbehaving service, not something to buffer. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Connection settings of the loyalty service. */
export interface LoyaltyHttpOptions {
  /** Base URL without trailing slash, e.g. `https://api-ru.iiko.services` or the simulator's `url`. */
  baseUrl: string;
  /** API login; exchanged for a Bearer token at `/api/1/access_token`. */
  apiLogin: string;
  /** Budget of one port call in milliseconds (token refresh and lookups included). Default 5000. */
  timeoutMs?: number;
  /** undici dispatcher (connection pool); default the global one. */
  dispatcher?: Dispatcher;
}

/**
 * Thin JSON-over-HTTP client: Bearer token cached and refreshed once on 401, no redirects (undici's `request`
 * never follows them), one deadline per port call, every failure turned into a LoyaltyError.
 */
export class LoyaltyHttpClient {
  private token: Promise<string> | null = null;
  readonly timeoutMs: number;

  constructor(private readonly o: LoyaltyHttpOptions) {
    this.timeoutMs = o.timeoutMs ?? 5000;
  }

  /** A signal that fires at the call's deadline or when the caller aborts; `timedOut` tells which. */
  deadline(caller?: AbortSignal): { signal: AbortSignal; timedOut: () => boolean } {
    const t = AbortSignal.timeout(this.timeoutMs);
    return { signal: caller ? AbortSignal.any([t, caller]) : t, timedOut: () => t.aborted };
  }

  /** POSTs JSON to `path` with the token; on 401 gets a new token and tries once more (same body, same key). */
  async post(path: string, body: unknown, d: { signal: AbortSignal; timedOut: () => boolean }): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.getToken(d);
      const res = await this.send(path, body, d, token);
      if (res.status === 401 && attempt === 0) {
        this.token = null;
        continue;
      }
      return this.answer(res);
    }
  }

  private getToken(d: { signal: AbortSignal; timedOut: () => boolean }): Promise<string> {
    if (this.token) return this.token;
    const p = this.send('/api/1/access_token', { apiLogin: this.o.apiLogin }, d)
      .then((res) => this.answer(res))
      .then((b) => expectShape(TokenAnswer, b, 'access_token').token);
    this.token = p;
    // A failed token request must not poison later calls.
    p.catch(() => {
      if (this.token === p) this.token = null;
    });
    return p;
  }

  private async send(path: string, body: unknown, d: { signal: AbortSignal; timedOut: () => boolean }, token?: string) {
    try {
      const res = await request(`${this.o.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
        signal: d.signal,
        dispatcher: this.o.dispatcher,
      });
      if (Number(res.headers['content-length'] ?? 0) > MAX_ANSWER_BYTES) {
        res.body.destroy();
        throw new LoyaltyError('unavailable', 'bad_response', 'loyalty answer too large');
      }
      const text = await res.body.text();
      return { status: res.statusCode, text, retryAfter: header(res.headers['retry-after']) };
    } catch (err) {
      if (err instanceof LoyaltyError) throw err;
      if (d.timedOut()) throw new LoyaltyError('unavailable', 'timeout', `loyalty call exceeded ${this.timeoutMs} ms`);
      if (d.signal.aborted) throw new LoyaltyError('unavailable', 'aborted', 'loyalty call aborted by the caller');
      throw new LoyaltyError('unavailable', 'network', `loyalty service unreachable: ${(err as Error).message}`);
    }
  }

  private answer(res: { status: number; text: string; retryAfter: string | null }): unknown {
    let body: unknown;
    try {
      body = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      body = undefined;
    }
    if (res.status >= 200 && res.status < 300) {
      if (body === undefined) throw new LoyaltyError('unavailable', 'bad_response', 'loyalty answer is not JSON');
      return body;
    }
    const b = (body ?? {}) as { error?: unknown; errorDescription?: unknown };
    const code = typeof b.error === 'string' ? b.error : undefined;
    const message = typeof b.errorDescription === 'string' ? b.errorDescription : `HTTP ${res.status}`;
    throw serviceError(res.status, code, message, res.retryAfter);
  }
}

function header(v: string | string[] | undefined): string | null {
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}
