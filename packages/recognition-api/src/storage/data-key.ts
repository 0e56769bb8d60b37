import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A 32-byte key: `configured` (from the environment, validated by config.ts) when given, else read from — or
 * generated once into — `file` (base64, mode 0600), so the embedded default keeps it across restarts. Several
 * instances on one database must share the configured key instead.
 * @throws Error when the file exists but does not hold a base64 32-byte key.
 */
export function loadOrCreateKey(configured: Buffer | undefined, file: string): Buffer {
  if (configured) return configured;
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
