import pg from 'pg';
import type { Db, Queryable } from './db.js';

// Timestamps come back as Date (default); int8 would come back as string, so the schema uses integer/bigint
// with explicit casts where a number is needed.

/** PostgreSQL through a `pg` pool. With `schema`, the schema is created and put first on the search path. */
export async function openPostgres(
  url: string,
  { schema, dropSchemaOnClose = false, poolSize = 10 }: { schema?: string; dropSchemaOnClose?: boolean; poolSize?: number } = {},
): Promise<Db> {
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await admin.end();
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: schema ? `-c search_path="${schema}",public` : undefined,
  });
  // An idle client's network error must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const query = async <T>(text: string, params: unknown[] = []): Promise<T[]> => (await pool.query(text, params)).rows as T[];
  return {
    kind: 'postgres',
    query,
    exec: async (sql: string) => void (await pool.query(sql)),
    ping: async () => void (await pool.query('SELECT 1')),
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const q: Queryable = {
          query: async <R>(t: string, p: unknown[] = []) => (await client.query(t, p)).rows as R[],
          exec: async (sql: string) => void (await client.query(sql)),
        };
        const out = await fn(q);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      if (schema && dropSchemaOnClose) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await pool.end();
    },
  };
}
