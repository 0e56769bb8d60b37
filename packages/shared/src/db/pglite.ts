import { PGlite } from '@electric-sql/pglite';
import type { Db, ListenHandlers, Queryable, Subscription } from './db-port.js';

/** Embedded PostgreSQL (PGlite) in `dataDir`, or in memory when no folder is given. */
export async function openPglite(dataDir?: string): Promise<Db> {
  const pg = dataDir ? new PGlite(dataDir) : new PGlite();
  await pg.waitReady;
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(text: string, params: unknown[] = []) {
      const r = await q.query<T>(text, params as unknown[]);
      return r.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  const base = wrap(pg);
  return {
    kind: 'pglite',
    query: base.query,
    exec: base.exec,
    ping: async () => void (await pg.query('SELECT 1')),
    tx: <T>(fn: (q: Queryable) => Promise<T>) => pg.transaction(async (t) => fn(wrap(t))),
    // in-process: the subscription cannot be lost, so `lost` is never called
    async listen(channel: string, handlers: ListenHandlers): Promise<Subscription> {
      let active = false;
      const unlisten = await pg.listen(channel, (payload) => {
        if (active) handlers.notify(payload ?? '');
      });
      active = true;
      handlers.listening?.();
      return {
        get active() {
          return active;
        },
        async close() {
          if (!active) return;
          active = false;
          await unlisten();
        },
      };
    },
    close: async () => {
      await pg.close();
    },
  };
}
