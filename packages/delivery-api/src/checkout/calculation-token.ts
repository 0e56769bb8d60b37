import { createHmac, timingSafeEqual } from 'node:crypto';

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

/** The protected header of every token: `{"alg":"HS256","typ":"calc+jwt"}`, base64url (as `jose` serialised it). */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'calc+jwt' })).toString('base64url');

/**
 * Signs and verifies calculation tokens: compact JWS, HS256, header {@link HEADER}, payload the claims then `iat`
 * and `exp` (the bytes `jose`'s SignJWT produced, so tokens issued before and after are interchangeable). The key is
 * derived from the master key. Signed and verified with node:crypto's synchronous HMAC: `jose` goes through
 * WebCrypto (a key import and a thread-pool job per token), which was about 15 % of the API's CPU time on
 * calculate (docs/performance.md).
 */
export class CalculationTokens {
  private readonly key: Buffer;
  private readonly hashKey: Buffer;

  constructor(masterKey: Buffer) {
    this.key = createHmac('sha256', masterKey).update('calculation-token/v1').digest();
    this.hashKey = createHmac('sha256', masterKey).update('calculation-token/hash/v1').digest();
  }

  /** Issues a token valid 15 minutes from `now`; returns it with its expiry (UTC). */
  async issue(b: CalculationBinding, now: Date): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + CALCULATION_TTL_SECONDS;
    const input = `${HEADER}.${Buffer.from(JSON.stringify({ ...this.claims(b), iat, exp })).toString('base64url')}`;
    return { token: `${input}.${this.sign(input)}`, expiresAt: new Date(exp * 1000) };
  }

  /**
   * Checks signature, expiry (at `now`) and that every bound input equals `b`.
   * Returns null when the token is valid for `b`, else the reason (for logs): the caller answers 409 price_changed.
   */
  async check(token: string, b: CalculationBinding, now: Date): Promise<string | null> {
    const parts = token.split('.');
    if (parts.length !== 3) return 'token invalid: not a compact JWS';
    if (parts[0] !== HEADER) return 'token invalid: unexpected protected header';
    const want = Buffer.from(this.sign(`${parts[0]}.${parts[1]}`));
    const got = Buffer.from(parts[2]);
    if (got.length !== want.length || !timingSafeEqual(got, want)) return 'token invalid: signature verification failed';
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    } catch {
      return 'token invalid: the claims are not JSON';
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return 'token invalid: the claims are not an object';
    if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return 'token invalid: "iat" or "exp" missing';
    if (payload.exp <= Math.floor(now.getTime() / 1000)) return 'token invalid: "exp" claim timestamp check failed';
    const claims = this.claims(b);
    for (const k of Object.keys(claims) as (keyof Claims)[]) {
      if (JSON.stringify(payload[k]) !== JSON.stringify(claims[k])) return `token does not match ${k}`;
    }
    return null;
  }

  /** HMAC-SHA256 of the signing input, base64url without padding (the JWS signature). */
  private sign(input: string): string {
    return createHmac('sha256', this.key).update(input).digest('base64url');
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
