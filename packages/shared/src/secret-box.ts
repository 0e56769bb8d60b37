import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A sealed secret could not be opened: unknown format, wrong master key, or the value was altered. */
export class SecretBoxError extends Error {}

/**
 * AES-256-GCM sealing of secrets at rest under a 32-byte master key (API HMAC secrets, webhook secrets, the e-document
 * operator's credentials). Stored form: `v1.<iv>.<tag>.<ciphertext>`, base64url, 96-bit random IV, 128-bit tag.
 * `context` (optional) is bound as associated data, so a value sealed for one column cannot be moved into another
 * unnoticed; a value sealed without context opens only without context. Secrets are never logged.
 */
export class SecretBox {
  /** @throws Error when `key` is not 32 bytes. */
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox: the master key must be 32 bytes');
  }

  /** Encrypts a UTF-8 secret; a new random IV each time. */
  seal(plain: string, context?: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
  }

  /** Decrypts what {@link seal} produced with the same `context`. @throws SecretBoxError when it cannot. */
  open(sealed: string, context?: string): string {
    const [v, iv, tag, ct] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || ct === undefined) throw new SecretBoxError('unknown sealed-secret format');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('the stored secret cannot be decrypted with this master key');
    }
  }
}
