import { canonicalRequestString, hmacHex, safeEqualHex, isUuid, type Clock } from '@app/shared';
import { ApiError } from '../errors.js';
import type { Credential, CredentialsRepo } from './credentials.repo.js';
import type { RequestIdStore } from './request-id-store.port.js';

/** Allowed difference between X-Timestamp and server time, both directions. Spec: Authentication, Limits. */
export const SKEW_SECONDS = 60;

/** What the authenticator needs from an HTTP request. */
export interface SignedRequest {
  headers: Record<string, string | string[] | undefined>;
  /** Upper-case HTTP method. */
  method: string;
  /** The raw request path as received, without the query string. */
  path: string;
  /** The exact body bytes (empty for GET). */
  rawBody: Uint8Array;
}

function header(h: SignedRequest['headers'], name: string): string | null {
  const v = h[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.length > 0 ? s : null;
}

/**
 * Verifies the HMAC signature of a request and consumes its X-Request-ID.
 * Order (ARCHITECTURE, request authentication): headers → timestamp ±60 s → key → constant-time signature →
 * single-use id. The id is consumed only after the signature is valid, so a forged request cannot burn ids. The
 * signature covers the X-Request-ID exactly as sent; the single-use check treats it case-insensitively (a UUID in
 * upper and lower case is one id), so re-sending a used id in another case, even re-signed, is 401.
 * @throws ApiError `unauthorized` (401) for every authentication failure; `authentication_unavailable` (503) when
 *   the key or single-use store cannot be read — the id is then not consumed and the request may be repeated.
 */
export class Authenticator {
  constructor(
    private readonly deps: {
      credentials: CredentialsRepo;
      requestIds: RequestIdStore;
      clock: Clock;
      /** How long a used id is remembered (≥ 2 × skew). */
      requestIdTtlSeconds: number;
    },
  ) {}

  async authenticate(req: SignedRequest): Promise<Credential> {
    const apiKey = header(req.headers, 'X-API-Key');
    const timestamp = header(req.headers, 'X-Timestamp');
    const requestId = header(req.headers, 'X-Request-ID');
    const signature = header(req.headers, 'X-Signature');
    if (!apiKey || !timestamp || !requestId || !signature) throw unauthorized('missing authentication header');
    if (apiKey.length < 8) throw unauthorized('key shorter than 8 characters');
    if (requestId.length !== 36 || !isUuid(requestId)) throw unauthorized('X-Request-ID is not a UUID');
    if (!/^\d{1,12}$/.test(timestamp)) throw unauthorized('X-Timestamp is not Unix seconds');
    const now = this.deps.clock.now();
    if (Math.abs(Number(timestamp) - Math.floor(now.getTime() / 1000)) > SKEW_SECONDS) throw unauthorized('timestamp outside 60 s');

    const cred = await this.guard(() => this.deps.credentials.findActiveByKey(apiKey));
    if (!cred) throw unauthorized('unknown key');
    const expected = hmacHex(cred.secret, canonicalRequestString({ timestamp, requestId, method: req.method, path: req.path, body: req.rawBody }));
    if (!safeEqualHex(expected, signature)) throw unauthorized('signature mismatch');

    const expiresAt = new Date(now.getTime() + this.deps.requestIdTtlSeconds * 1000);
    const fresh = await this.guard(() => this.deps.requestIds.consume(apiKey, requestId, now, expiresAt));
    if (!fresh) throw unauthorized('X-Request-ID already used');
    return cred;
  }

  /**
   * Whether the active credential with this key belongs to a source with the switch on (cached like
   * authentication). False for a missing or unknown key and when the store cannot be read.
   */
  async keyHasFeature(apiKey: string | string[] | undefined, feature: string): Promise<boolean> {
    const key = Array.isArray(apiKey) ? apiKey[0] : apiKey;
    if (!key || key.length < 8) return false;
    const cred = await this.deps.credentials.findActiveByKey(key).catch(() => null);
    return cred?.features.includes(feature) ?? false;
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new ApiError('authentication_unavailable', {}, `authentication store unavailable: ${(err as Error).message}`);
    }
  }
}

function unauthorized(why: string): ApiError {
  return new ApiError('unauthorized', {}, why);
}
