import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where the embedded default keeps the generated key of the session cookie. */
export const sessionKeyFile = (dataDir: string): string => join(dataDir, 'recognition', 'admin-session.key');

/**
 * The 32-byte key that encrypts the panel's session cookie: ADMIN_SESSION_KEY when configured, else read from — or
 * generated once into — `<dataDir>/recognition/admin-session.key` (0600), so sessions survive a restart. Several
 * instances behind one load balancer must share ADMIN_SESSION_KEY.
 */
export function loadSessionKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  const file = sessionKeyFile(dataDir);
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
    return key;
  }
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 });
  return key;
}
