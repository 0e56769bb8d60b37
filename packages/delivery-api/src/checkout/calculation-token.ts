import { createHmac } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';

/** Validity of a calculationId: 15 minutes. Spec: calculate rule 3, Limits. */
export const CALCULATION_TTL_SECONDS = 15 * 60;

/**
 * What a calculation binds (spec POST /v1/orders rule 3: deliveryType, coupon, bonusToSpend, certificate, guest
 * phone), plus the point and the cart, so a token cannot be replayed for another order. The readable part of the
 * token never holds the certificate serial or the phone: both are keyed hashes.
 */
export interface CalculationBinding {
  tenantId: string;
  source: string;
  pointId: string;
  deliveryType: 'courier' | 'pickup';
  /** [menu item id, quantity in thousandths], in request order. */
  items: [string, number][];
  coupon: string | null;
  bonusToSpendMinor: number | null;
  certificate: { serial: string; amountMinor: number } | null;
  phone: string | null;
  /** What the guest pays (the calculation's total), kopecks. */
  totalMinor: number;
}

interface Claims {
  v: 1;
  tid: string;
  src: string;
  pid: string;
  dt: string;
  it: [string, number][];
  cpn: string | null;
  bns: number | null;
  crt: string | null;
  ph: string | null;
  tot: number;
}

/** Signs and verifies calculation tokens (compact JWS, HS256, `jose`). The key is derived from the master key. */
export class CalculationTokens {
  private readonly key: Uint8Array;
  private readonly hashKey: Buffer;

  constructor(masterKey: Buffer) {
    this.key = createHmac('sha256', masterKey).update('calculation-token/v1').digest();
    this.hashKey = createHmac('sha256', masterKey).update('calculation-token/hash/v1').digest();
  }

  /** Issues a token valid 15 minutes from `now`; returns it with its expiry (UTC). */
  async issue(b: CalculationBinding, now: Date): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + CALCULATION_TTL_SECONDS;
    const token = await new SignJWT({ ...this.claims(b) })
      .setProtectedHeader({ alg: 'HS256', typ: 'calc+jwt' })
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /**
   * Checks signature, expiry (at `now`) and that every bound input equals `b`.
   * Returns null when the token is valid for `b`, else the reason (for logs): the caller answers 409 price_changed.
   */
  async check(token: string, b: CalculationBinding, now: Date): Promise<string | null> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: now, typ: 'calc+jwt' }));
    } catch (err) {
      return `token invalid: ${(err as Error).message}`;
    }
    const want = this.claims(b);
    for (const k of Object.keys(want) as (keyof Claims)[]) {
      if (JSON.stringify(payload[k]) !== JSON.stringify(want[k])) return `token does not match ${k}`;
    }
    return null;
  }

  /** When a token (already checked with {@link check}) was issued; null when it carries no issue time. */
  issuedAt(token: string): Date | null {
    const { iat } = decodeJwt(token);
    return typeof iat === 'number' ? new Date(iat * 1000) : null;
  }

  private claims(b: CalculationBinding): Claims {
    return {
      v: 1,
      tid: b.tenantId,
      src: b.source,
      pid: b.pointId,
      dt: b.deliveryType,
      it: b.items,
      cpn: b.coupon,
      bns: b.bonusToSpendMinor,
      crt: b.certificate ? this.hash(`${b.certificate.serial}\n${b.certificate.amountMinor}`) : null,
      ph: b.phone ? this.hash(b.phone) : null,
      tot: b.totalMinor,
    };
  }

  private hash(s: string): string {
    return createHmac('sha256', this.hashKey).update(s).digest('hex').slice(0, 32);
  }
}
