import { randomBytes } from 'node:crypto';
import { migrate, openDb, type Db } from './db.js';

/**
 * A fresh, migrated database for one test: in-memory PGlite by default, or a throw-away schema on the
 * PostgreSQL server named by DATABASE_URL (dropped on close), so the same suite runs on both.
 */
export async function openTestDb(migrationsDir: string): Promise<Db> {
  const url = process.env.DATABASE_URL;
  const db = url
    ? await openDb({ databaseUrl: url, schema: `t_${randomBytes(6).toString('hex')}`, dropSchemaOnClose: true, poolSize: 4 })
    : await openDb({});
  await migrate(db, migrationsDir);
  return db;
}
