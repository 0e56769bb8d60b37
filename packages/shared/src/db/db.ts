import type { Db } from './db-port.js';

// The port's types live in db-port.ts, which the drivers import, so db.ts (which loads the drivers) and the drivers
// do not import each other.
export type { Db, ListenHandlers, Queryable, QueryOptions, Subscription } from './db-port.js';
export { migrate } from './migrations.repo.js';

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

/** True when `err` is a unique-constraint violation (SQLSTATE 23505), optionally of the named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return !constraint || e.constraint === constraint || (e.message ?? '').includes(constraint);
}
