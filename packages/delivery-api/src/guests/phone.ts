import { createHmac } from 'node:crypto';
import { ApiError } from '../errors.js';

/**
 * The phone of a guest path (`/v1/guests/{phone}/…`) in E.164 as the spec writes it: `+7` and 10 digits. Before the
 * check, spaces, hyphens, dots and parentheses are dropped, and a Russian number written `8XXXXXXXXXX` or
 * `7XXXXXXXXXX` gets its `+7` (docs/planned-features.md, "Phone normalisation").
 * @throws ApiError `invalid_phone` (400) for anything else.
 */
export function normalisePhone(raw: string): string {
  const compact = raw.replace(/[\s\-().]/g, '');
  const e164 = /^[78]\d{10}$/.test(compact) ? `+7${compact.slice(1)}` : compact;
  if (!/^\+7\d{10}$/.test(e164)) throw new ApiError('invalid_phone', {}, 'phone is not +7 and 10 digits');
  return e164;
}

/**
 * The keyed hash guest history is indexed by (orders.guest_phone_hash): HMAC-SHA256 of the normalised phone under
 * a key derived from the master key, hex. Without the master key the index does not reveal phones (a plain hash of
 * the 10^10 possible numbers would be reversed in minutes).
 */
export class PhoneHasher {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    this.key = createHmac('sha256', masterKey).update('guest-phone-index/v1').digest();
  }

  hash(phone: string): string {
    return createHmac('sha256', this.key).update(phone).digest('hex');
  }
}
