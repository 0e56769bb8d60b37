import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where the embedded default keeps its generated master key. */
export const masterKeyFile = (dataDir: string): string => join(dataDir, 'recognition', 'edo-master.key');

/**
 * The 32-byte master key that seals the operator connection's secrets: `configured` (EDO_MASTER_KEY, already
 * validated by config.ts) when given, else read from — or generated once into — `<dataDir>/recognition/edo-master.key`
 * (mode 0600). Several instances on one PostgreSQL must share EDO_MASTER_KEY instead.
 */
export function loadMasterKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  const file = masterKeyFile(dataDir);
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
