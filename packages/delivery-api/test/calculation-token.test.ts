import { createHmac, randomBytes } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { CALCULATION_TTL_SECONDS, type CalculationBinding, CalculationTokens } from '../src/checkout/calculation-token.js';

const master = randomBytes(32);
const key = createHmac('sha256', master).update('calculation-token/v1').digest();
const now = new Date('2026-11-23T12:00:00.123Z');
const binding: CalculationBinding = {
  tenantId: 't',
  source: 'website',
  pointId: '1',
  deliveryType: 'courier',
  items: [
    ['6f1c1c9e-3c55-4c1e-9d1a-0b6a8e0c0001', 1000],
    ['6f1c1c9e-3c55-4c1e-9d1a-0b6a8e0c0002', 2500],
  ],
  coupon: 'Скидка',
  bonusToSpendMinor: 30000,
  certificate: { serial: 'CERT-1', amountMinor: 50000 },
  phone: '+79990000001',
  totalMinor: 245000,
};

describe('calculation tokens (HS256 JWS through jose; the token format is fixed)', () => {
  const tokens = new CalculationTokens(master);

  it('issues exactly the HS256 token of the fixed header and claim order, and jose verifies it', async () => {
    const { token, expiresAt } = await tokens.issue(binding, now);
    const iat = Math.floor(now.getTime() / 1000);
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: now, typ: 'calc+jwt' });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'calc+jwt' });
    expect(payload.iat).toBe(iat);
    expect(payload.exp).toBe(iat + CALCULATION_TTL_SECONDS);
    expect(expiresAt.getTime()).toBe((iat + CALCULATION_TTL_SECONDS) * 1000);
    const { iat: _i, exp: _e, ...claims } = payload;
    const byJose = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'calc+jwt' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + CALCULATION_TTL_SECONDS)
      .sign(key);
    expect(token).toBe(byJose);
    expect(token).not.toContain('CERT-1');
  });

  it('accepts its own tokens until they expire and only for the bound inputs', async () => {
    const { token } = await tokens.issue(binding, now);
    expect(await tokens.check(token, binding, now)).toBeNull();
    expect(await tokens.check(token, binding, new Date(now.getTime() + (CALCULATION_TTL_SECONDS - 1) * 1000))).toBeNull();
    expect(await tokens.check(token, binding, new Date(now.getTime() + CALCULATION_TTL_SECONDS * 1000))).toMatch(/^token invalid: "exp"/);
    expect(await tokens.check(token, { ...binding, totalMinor: 1 }, now)).toBe('token does not match tot');
    expect(await tokens.check(token, { ...binding, phone: '+79990000002' }, now)).toBe('token does not match ph');
    expect(await tokens.check(token, { ...binding, items: [...binding.items].reverse() }, now)).toBe('token does not match it');
  });

  it('rejects a token of another key, a changed payload or signature, and garbage', async () => {
    const { token } = await tokens.issue(binding, now);
    const other = await new CalculationTokens(randomBytes(32)).issue(binding, now);
    expect(await tokens.check(other.token, binding, now)).toMatch(/^token invalid: signature/);
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), tot: 1 })).toString('base64url');
    expect(await tokens.check(`${h}.${forged}.${s}`, { ...binding, totalMinor: 1 }, now)).toMatch(/^token invalid: signature/);
    // The first character of the signature: all of its 6 bits are signature bits. (The last character of a 43-character
    // HS256 signature carries 2 padding bits, so changing it between look-alike values such as A and B can leave the
    // decoded signature unchanged, and the test failed about 1 run in 16.)
    expect(await tokens.check(`${h}.${p}.${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`, binding, now)).toMatch(/^token invalid/);
    expect(await tokens.check(`${h}.${p}`, binding, now)).toMatch(/^token invalid/);
    expect(await tokens.check('', binding, now)).toMatch(/^token invalid/);
    const none = `${Buffer.from('{"alg":"none","typ":"calc+jwt"}').toString('base64url')}.${p}.`;
    expect(await tokens.check(none, binding, now)).toMatch(/^token invalid/);
  });

  it('accepts a token jose signed with the same key (a token another instance issued)', async () => {
    const iat = Math.floor(now.getTime() / 1000);
    const ours = await tokens.issue(binding, now);
    const { iat: _i, exp: _e, ...claims } = JSON.parse(Buffer.from(ours.token.split('.')[1], 'base64url').toString());
    const byJose = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'calc+jwt' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + CALCULATION_TTL_SECONDS)
      .sign(key);
    expect(await tokens.check(byJose, binding, now)).toBeNull();
  });
});
