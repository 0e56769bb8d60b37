import { hkdfSync } from 'node:crypto';

/**
 * The 32-byte key that encrypts the console's session cookie, derived from MASTER_KEY (HKDF-SHA256, its own info
 * label): every instance with the same master key reads the same cookies, sessions survive a restart, and there is
 * no second secret to provision.
 */
export const consoleSessionKey = (masterKey: Buffer): Buffer =>
  Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'delivery-console-session-cookie', 32));
