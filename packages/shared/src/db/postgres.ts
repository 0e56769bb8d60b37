import pg from 'pg';
import type { Db, ListenHandlers, Queryable, QueryOptions, Subscription } from './db-port.js';

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
  const query = async <T>(text: string, params: unknown[] = [], opts?: QueryOptions): Promise<T[]> =>
    (await pool.query(opts?.name ? { name: opts.name, text, values: params } : { text, values: params })).rows as T[];
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
          query: async <R>(t: string, p: unknown[] = [], o?: QueryOptions) =>
            (await client.query(o?.name ? { name: o.name, text: t, values: p } : { text: t, values: p })).rows as R[],
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
    listen: (channel, handlers) => listenPostgres(url, channel, handlers),
    async close() {
      if (schema && dropSchemaOnClose) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await pool.end();
    },
  };
}

/** First reconnect delay of a lost LISTEN connection (doubled per failed attempt, at most 5 s). */
const RELISTEN_FIRST_MS = 250;
const RELISTEN_MAX_MS = 5000;

/**
 * LISTEN on a dedicated client (a pooled client would go back to the pool and lose its subscription). Loss =
 * the client's `error` or `end`: `lost` is called once, then it reconnects with back-off until LISTEN succeeds.
 */
async function listenPostgres(url: string, channel: string, handlers: ListenHandlers): Promise<Subscription> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`listen: channel "${channel}" is not a lower-case identifier`);
  let closed = false;
  let active = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let delay = RELISTEN_FIRST_MS;

  const onLoss = (c: pg.Client, err: Error) => {
    if (client !== c) return; // already handled (error and end both fire)
    client = null;
    active = false;
    c.removeAllListeners('notification');
    c.end().catch(() => {});
    if (closed) return;
    handlers.lost?.(err);
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
    delay = Math.min(delay * 2, RELISTEN_MAX_MS);
  };

  const connect = async (): Promise<void> => {
    timer = null;
    if (closed) return;
    const c = new pg.Client({ connectionString: url, keepAlive: true });
    client = c;
    c.on('error', (err) => onLoss(c, err));
    c.on('end', () => onLoss(c, new Error('LISTEN connection ended')));
    c.on('notification', (n) => {
      if (client === c && n.channel === channel) handlers.notify(n.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      onLoss(c, err as Error);
      return;
    }
    if (client !== c || closed) return;
    active = true;
    delay = RELISTEN_FIRST_MS;
    handlers.listening?.();
  };

  await connect();
  return {
    get active() {
      return active;
    },
    async close() {
      closed = true;
      active = false;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}
