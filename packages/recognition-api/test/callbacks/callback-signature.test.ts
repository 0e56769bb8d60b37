import { describe, expect, it } from 'vitest';
import {
  callbackHeaders,
  CallbackVerificationError,
  newCallbackSecret,
  signCallback,
  verifyCallback,
} from '../../src/callbacks/callback-signature.js';

/** Known-answer vectors. The first is the Standard Webhooks specification's reference example. */
const VECTORS = [
  {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    ts: 1614265330,
    body: '{"test": 2432232314}',
    signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
  {
    secret: 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
    id: 'cb_00000000-0000-4000-8000-000000000001',
    ts: 1795510800,
    body: '{"event":"document.completed","document_id":"doc_abc","status":"completed"}',
    signature: 'v1,waIDcm/yhvCC2GOrjBSLsk4Z0izOAm7lHcdZuSGgN3E=',
  }, // computed with openssl dgst -sha256 -mac HMAC
];

describe('callback signatures (Standard Webhooks form)', () => {
  it.each(VECTORS)('signs $id at $ts as the known answer', (v) => {
    expect(signCallback(v.secret, v.id, v.ts, v.body)).toBe(v.signature);
    expect(callbackHeaders(v.secret, v.id, v.ts, v.body)).toEqual({
      'webhook-id': v.id,
      'webhook-timestamp': String(v.ts),
      'webhook-signature': v.signature,
    });
  });

  const v = VECTORS[1]!;
  const headers = callbackHeaders(v.secret, v.id, v.ts, v.body);
  it('verifies a genuine delivery, also among several signatures (secret rotation)', () => {
    expect(() => verifyCallback(v.secret, headers, v.body, v.ts + 10)).not.toThrow();
    expect(() =>
      verifyCallback(v.secret, { ...headers, 'webhook-signature': `v1,AAAA ${headers['webhook-signature']}` }, v.body, v.ts),
    ).not.toThrow();
  });
  it.each([
    ['a changed body', () => verifyCallback(v.secret, headers, v.body.replace('abc', 'abd'), v.ts), /no signature matches/],
    ['another secret', () => verifyCallback(newCallbackSecret(), headers, v.body, v.ts), /no signature matches/],
    ['a changed id', () => verifyCallback(v.secret, { ...headers, 'webhook-id': 'cb_other' }, v.body, v.ts), /no signature matches/],
    ['a timestamp 301 s old', () => verifyCallback(v.secret, headers, v.body, v.ts + 301), /outside ±300 s/],
    ['a timestamp 301 s ahead', () => verifyCallback(v.secret, headers, v.body, v.ts - 301), /outside ±300 s/],
    ['a missing header', () => verifyCallback(v.secret, { ...headers, 'webhook-signature': undefined }, v.body, v.ts), /missing/],
    [
      'a v2 scheme only',
      () => verifyCallback(v.secret, { ...headers, 'webhook-signature': headers['webhook-signature']!.replace('v1,', 'v2,') }, v.body, v.ts),
      /no signature/,
    ],
  ] as const)('refuses %s', (_n, fn, msg) => {
    expect(fn).toThrow(CallbackVerificationError);
    expect(fn).toThrow(msg);
  });
  it('new secrets are whsec_ + 32 random bytes', () => {
    const s = newCallbackSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
    expect(newCallbackSecret()).not.toBe(s);
  });
});
