import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, openDb, type Db } from '@app/shared';

/** Folder of this package's SQL migrations. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

/**
 * Opens and migrates the recognition database: PostgreSQL schema `recognition` when `databaseUrl` is set (so its
 * tables never clash with the delivery service's), else embedded PGlite in `<dataDir>/recognition/db`.
 */
export async function openRecognitionDb(opts: { databaseUrl?: string; dataDir: string }): Promise<Db> {
  let db: Db;
  if (opts.databaseUrl) db = await openDb({ databaseUrl: opts.databaseUrl, schema: 'recognition' });
  else {
    const dir = join(opts.dataDir, 'recognition', 'db');
    mkdirSync(dir, { recursive: true });
    db = await openDb({ dataDir: dir });
  }
  await migrate(db, MIGRATIONS_DIR);
  return db;
}
