import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Callback signatures in the Standard Webhooks form (the spec leaves callback authentication open; a standard form
 * lets receivers use its libraries). Headers: `webhook-id` (the delivery id, the same on every retry: receivers de-duplicate by it),
 * `webhook-timestamp` (Unix seconds of this attempt), `webhook-signature` (`v1,` + base64 HMAC-SHA256 over
 * `${id}.${timestamp}.${body}` keyed with the base64-decoded part of the key's `whsec_…` secret). Known-answer
 * vectors: callback-signature.test.ts (the first is the Standard Webhooks reference vector).
 */
export const SECRET_PREFIX = 'whsec_';

/** A new per-key callback secret: `whsec_` + base64 of 32 random bytes. */
export const newCallbackSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** `v1,<base64 signature>` of one message. */
export function signCallback(secret: string, id: string, timestampSec: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSec}.${body}`).digest('base64')}`;
}

/** The three headers of one delivery attempt. */
export function callbackHeaders(secret: string, id: string, timestampSec: number, body: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSec), 'webhook-signature': signCallback(secret, id, timestampSec, body) };
}

/** Why a callback failed verification; one error type with a message saying what to fix. */
export class CallbackVerificationError extends Error {}

/**
 * The receiver's check (reference for README and integrators): the timestamp within `toleranceSec` of `nowSec`
 * both ways, then any of the space-separated `v1,` signatures equal in constant time.
 * @throws CallbackVerificationError
 */
export function verifyCallback(secret: string, headers: Record<string, string | undefined>, body: string, nowSec: number, toleranceSec = 300): void {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sigs = headers['webhook-signature'];
  if (!id || !ts || !sigs) throw new CallbackVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  const t = Number(ts);
  if (!/^\d+$/.test(ts) || Math.abs(nowSec - t) > toleranceSec)
    throw new CallbackVerificationError(`timestamp ${ts} is outside ±${toleranceSec} s of now`);
  const expected = Buffer.from(signCallback(secret, id, t, body).slice(3), 'base64');
  const ok = sigs.split(' ').some((s) => {
    if (!s.startsWith('v1,')) return false;
    const got = Buffer.from(s.slice(3), 'base64');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
  if (!ok) throw new CallbackVerificationError('no signature matches: wrong secret, or the body was changed');
}
