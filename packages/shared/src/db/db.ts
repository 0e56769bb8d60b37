import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Db } from './db-port.js';

// The port's types live in db-port.ts, which the drivers import, so db.ts (which loads the drivers) and the drivers
// do not import each other.
export type { Db, ListenHandlers, Queryable, QueryOptions, Subscription } from './db-port.js';

/** Options for {@link openDb}. */
export interface OpenDbOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder; when absent (and no databaseUrl) an in-memory PGlite is used (tests). */
  dataDir?: string;
  /** PostgreSQL only: a schema to create and use (test isolation on a shared server). */
  schema?: string;
  /** PostgreSQL only: drop `schema` on close (tests). */
  dropSchemaOnClose?: boolean;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

/** Opens PostgreSQL (databaseUrl) or PGlite (dataDir or memory). */
export async function openDb(opts: OpenDbOptions): Promise<Db> {
  if (opts.databaseUrl) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(opts.databaseUrl, { schema: opts.schema, dropSchemaOnClose: opts.dropSchemaOnClose, poolSize: opts.poolSize });
  }
  const { openPglite } = await import('./pglite.js');
  return openPglite(opts.dataDir);
}

/**
 * Applies the `*.sql` files of `dir` in name order, each once, recorded in `schema_migrations`.
 * An advisory lock keeps two instances starting together from applying the same file twice.
 */
export async function migrate(db: Db, dir: string): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  await db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock(7242001)');
    await q.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await q.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    for (const f of files) {
      if (done.has(f)) continue;
      const sql = await readFile(join(dir, f), 'utf8');
      await q.exec(sql); // the whole file as one script: PostgreSQL parses it (dollar quotes, semicolons in bodies)
      await q.query('INSERT INTO schema_migrations (name) VALUES ($1)', [f]);
      applied.push(f);
    }
  });
  return applied;
}

/** True when `err` is a unique-constraint violation (SQLSTATE 23505), optionally of the named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return !constraint || e.constraint === constraint || (e.message ?? '').includes(constraint);
}
