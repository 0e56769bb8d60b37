import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost: N = 2^15, r = 8, p = 1 (32 MiB of memory per hash, tens of milliseconds): memory-hard, no native build. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LEN = 32;

function derive(password: string, salt: Buffer, o: { N: number; r: number; p: number }): Promise<Buffer> {
  const opts: ScryptOptions = { N: o.N, r: o.r, p: o.p, maxmem: 256 * o.N * o.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_LEN, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Hashes a password as `scrypt$N$r$p$<salt base64>$<hash base64>` (the format of ADMIN_PASSWORD_HASH). */
export async function hashPassword(password: string, params: { N: number; r: number; p: number } = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Parses a stored hash; null when it is not in our format. */
export function parsePasswordHash(stored: string): { N: number; r: number; p: number; salt: Buffer; key: Buffer } | null {
  const m = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored.trim());
  if (!m) return null;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (N < 2 || (N & (N - 1)) !== 0 || N > 2 ** 20 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  const key = Buffer.from(m[5]!, 'base64');
  return key.length >= 16 ? { N, r, p, salt: Buffer.from(m[4]!, 'base64'), key } : null;
}

/** Constant-time check of a password against a stored hash; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parsePasswordHash(stored);
  if (!h) return false;
  const key = await derive(password, h.salt, h);
  return key.length === h.key.length && timingSafeEqual(key, h.key);
}
