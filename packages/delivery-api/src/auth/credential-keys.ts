import { randomBytes } from 'node:crypto';

/** A new API key: `pk_` (partner) or `pos_` (POS) and 24 random hex digits. Spec: Authentication (key ≥ 8 characters). */
export function newApiKey(kind: 'partner' | 'pos'): string {
  return `${kind === 'pos' ? 'pos' : 'pk'}_${randomBytes(12).toString('hex')}`;
}

/** A new API HMAC secret: 32 random bytes, base64url (43 characters; the spec asks for at least 32). */
export function newApiSecret(): string {
  return randomBytes(32).toString('base64url');
}
