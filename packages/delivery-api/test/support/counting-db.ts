import type { Db, Queryable, QueryOptions } from '@app/shared';

/** One statement sent to the database: its SQL text as sent ('BEGIN'/'COMMIT'/'ROLLBACK' for `tx` boundaries). */
export interface SentStatement {
  sql: string;
}

/**
 * A `Db` that records every statement it sends, for per-request round-trip counts in tests. `tx` records its
 * BEGIN and COMMIT (or ROLLBACK) as the PostgreSQL driver sends them; `listen` passes through uncounted.
 */
export function countingDb(db: Db, log: SentStatement[]): Db {
  const wrap = (q: Queryable): Queryable => ({
    query: async <T>(text: string, params?: unknown[], opts?: QueryOptions) => {
      log.push({ sql: text });
      return q.query<T>(text, params, opts);
    },
    exec: async (sql: string) => {
      log.push({ sql });
      return q.exec(sql);
    },
  });
  const base = wrap(db);
  return {
    ...base,
    kind: db.kind,
    ping: () => db.ping(),
    close: () => db.close(),
    ...(db.listen ? { listen: db.listen.bind(db) } : {}),
    tx: async <T>(fn: (q: Queryable) => Promise<T>) => {
      log.push({ sql: 'BEGIN' });
      try {
        const out = await db.tx((q) => fn(wrap(q)));
        log.push({ sql: 'COMMIT' });
        return out;
      } catch (err) {
        log.push({ sql: 'ROLLBACK' });
        throw err;
      }
    },
  };
}

/** The statements of `log` as short labels (first 60 characters, whitespace collapsed), for readable test output. */
export function labels(log: SentStatement[]): string[] {
  return log.map((s) => s.sql.replace(/\s+/g, ' ').trim().slice(0, 60));
}
