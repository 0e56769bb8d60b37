import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The database port: plain SQL with positional parameters ($1, $2, ...), the same text on PostgreSQL and PGlite.
 * We use SQL directly rather than an ORM because the designs that matter here (ON CONFLICT single-use ids,
 * FOR UPDATE SKIP LOCKED queues, unique-constraint idempotency) are SQL features; see docs/decisions.md.
 */
export interface Queryable {
  /**
   * Runs one statement and returns its rows. Rejects with the driver's error (which carries `code`, e.g. 23505).
   * With `opts.name`, PostgreSQL prepares the statement once per connection under that name and later calls only
   * bind and execute it (no parse/plan per call): for hot statements; the same name must always carry the same
   * text. PGlite ignores the name.
   */
  query<T = Record<string, unknown>>(text: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>;
  /** Runs a script of several statements as sent (simple query protocol; no parameters), e.g. a migration file. */
  exec(sql: string): Promise<void>;
}

/** Options of {@link Queryable.query}. */
export interface QueryOptions {
  /** Name of a prepared statement (PostgreSQL; per connection, unique per statement text). */
  name?: string;
}

export interface Db extends Queryable {
  /** Runs `fn` inside one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Answers when the database does (readiness); rejects with the driver's error otherwise. */
  ping(): Promise<void>;
  /** 'postgres' or 'pglite', for health output and logs. */
  readonly kind: 'postgres' | 'pglite';
  /**
   * Subscribes to PostgreSQL notifications (`LISTEN channel`; senders use `NOTIFY` or `pg_notify`, delivered after
   * their transaction commits). `channel` is a lower-case SQL identifier. On PostgreSQL the subscription has its own
   * connection outside the pool; when that connection is lost, `lost` is called, notifications sent meanwhile are
   * missed, and it reconnects and LISTENs again in the background (then `listening` is called again). PGlite is
   * in-process: its subscription is never lost. Resolves after the first LISTEN attempt, whether it succeeded
   * (`listening` called, `active` true) or not (`lost` called, retried in the background on PostgreSQL).
   * Optional in the port: a wrapper that does not forward it (a test or benchmark counter) has none, and callers
   * then act as if notifications were unavailable (a cache that depends on them stays off).
   */
  listen?(channel: string, handlers: ListenHandlers): Promise<Subscription>;
  close(): Promise<void>;
}

/** Callbacks of a {@link Db.listen} subscription. */
export interface ListenHandlers {
  /** One notification on the channel: the payload as sent ('' when sent without one). */
  notify(payload: string): void;
  /** LISTEN is in effect (the first time, or again after a reconnect): notifications sent from now on arrive. */
  listening?(): void;
  /** The listening connection was lost or could not be opened: notifications are missed until the next `listening`. */
  lost?(err: Error): void;
}

/** A live {@link Db.listen} subscription. */
export interface Subscription {
  /** True while LISTEN is in effect (false between a loss and the next successful reconnect, and after close). */
  readonly active: boolean;
  /** Stops listening (on PostgreSQL, closes the dedicated connection); no callback is called after it resolves. */
  close(): Promise<void>;
}

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
