/**
 * Single-use store of X-Request-ID per key. Spec: Authentication — "a reused value for the same key gives 401",
 * kept at least twice the skew window; 503 `authentication_unavailable` when the check is impossible.
 * Implementations: RequestIdsRepo (PostgreSQL/PGlite, the default) and RedisRequestIds (with REDIS_URL).
 * Both treat a UUID as one id whatever its letter case (`normalizeRequestId`); the signature is still verified over
 * the header exactly as sent (authenticator.ts).
 */
export interface RequestIdStore {
  /**
   * Records the id as used by `apiKey` until `expiresAt`. Returns true when it was fresh (never used, or its
   * previous use expired), false when already used. Atomic: of two instances racing on one id exactly one wins.
   * @throws when the store cannot be reached or does not answer in time; the id is then not recorded.
   */
  consume(apiKey: string, requestId: string, now: Date, expiresAt: Date): Promise<boolean>;
}

/** The stored form of an X-Request-ID: lower case, so `ABC…` and `abc…` are the same UUID (RFC 9562 §4). */
export function normalizeRequestId(requestId: string): string {
  return requestId.toLowerCase();
}
