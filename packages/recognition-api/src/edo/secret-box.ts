import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A sealed secret could not be opened: wrong master key, or the value was altered. */
export class SecretBoxError extends Error {}

/**
 * AES-256-GCM sealing of connection secrets. Output `v1.<iv>.<tag>.<ciphertext>` (base64url; 96-bit random IV,
 * 128-bit tag). `context` (the column name) is bound as associated data, so a sealed client secret cannot be
 * moved into the refresh-token column unnoticed.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox: the master key must be 32 bytes');
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ct].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  /** @throws SecretBoxError when the key is wrong or the value was tampered with. */
  open(sealed: string, context: string): string {
    const [v, iv, tag, ct] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || ct === undefined) throw new SecretBoxError('unknown sealed-secret format');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('the stored secret cannot be decrypted with this master key');
    }
  }
}
