/**
 * The catalog revision cache on PostgreSQL: two app instances, each with its own connection
 * pool and LISTEN connection to one database. A change committed through one reaches the other by NOTIFY; a killed
 * LISTEN connection turns the cache off until the adapter has listened again. PostgreSQL only: vitest.config.ts
 * collects `*.pg.test.ts` only when DATABASE_URL is PostgreSQL.
 */
import { openDb, type Db } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeWorld, sampleMenu, type World } from './harness.js';
import { countingDb, labels, type SentStatement } from './support/counting-db.js';
import { secondInstance, type Instance } from './support/instances.js';

const listenerPids = async (db: Db) =>
  (await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN delivery_catalog' AND datname = current_database()`)).map(
    (r) => r.pid,
  );

const log: SentStatement[] = [];
let w: World;
let other: Db;
let b: Instance;
let aListener: number;
beforeAll(async () => {
  w = await makeWorld({ wrapDb: (db) => countingDb(db, log) });
  const before = await listenerPids(w.db);
  await w.app.ready();
  [aListener] = (await listenerPids(w.db)).filter((p) => !before.includes(p));
  const [{ schema }] = await w.db.query<{ schema: string }>('SELECT current_schema() AS schema');
  other = await openDb({ databaseUrl: process.env.DATABASE_URL!, schema, poolSize: 2 });
  b = await secondInstance(w, other);
  await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
});
afterAll(async () => {
  await b?.app.close();
  await other?.close();
  await w?.app.close();
  await w?.db.close();
});

const menuOf = (etag?: string) => w.call(w.partner, 'GET', '/v1/points/1/menu', undefined, etag ? { 'if-none-match': etag } : {});
const catalogSql = () => labels(log).filter((s) => !s.startsWith('INSERT INTO request_ids') && !s.startsWith('SELECT id, kind, api_key'));

describe('catalog revision cache on PostgreSQL', () => {
  it('a cached 304 executes no catalog query', async () => {
    expect(aListener).toBeGreaterThan(0);
    const rev = (await menuOf()).json().revision;
    await menuOf(rev);
    log.length = 0;
    expect((await menuOf(rev)).statusCode).toBe(304);
    expect(catalogSql()).toEqual([]);
  });

  it('a menu pushed through the second connection invalidates the first instance’s cache', async () => {
    const rev = (await menuOf()).json().revision;
    await menuOf(rev);
    const m = sampleMenu();
    m.items[0].priceMinor += 500;
    expect((await b.call(w.pos['1'], 'POST', '/pos/v1/menu', m)).statusCode).toBe(200);
    // NOTIFY reaches the first instance's LISTEN connection shortly after the commit (another socket)
    await vi.waitFor(async () => expect((await menuOf(rev)).statusCode).toBe(200), { timeout: 5000, interval: 20 });
    expect((await menuOf()).json().items[0].price.amountMinor).toBe(m.items[0].priceMinor);
  });

  it('a killed LISTEN connection turns the cache off (database reads) until it has listened again', async () => {
    const rev = (await menuOf()).json().revision;
    await menuOf(rev);
    await other.query('SELECT pg_terminate_backend($1)', [aListener]);
    await vi.waitFor(() => expect(w.services.catalogRevisions.serving).toBe(false), { timeout: 5000, interval: 10 });
    log.length = 0;
    expect((await menuOf(rev)).statusCode).toBe(304);
    expect(catalogSql().length).toBeGreaterThan(0); // read from the database while not listening
    await vi.waitFor(() => expect(w.services.catalogRevisions.serving).toBe(true), { timeout: 10_000, interval: 20 });
    // listening again: a change through the other instance is seen, and an unchanged menu is served from memory
    await b.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [{ id: sampleMenu().items[0].id, balance: 0 }] });
    await vi.waitFor(async () => expect((await menuOf(rev)).statusCode).toBe(200), { timeout: 5000, interval: 20 });
    const next = (await menuOf()).json().revision;
    await menuOf(next);
    log.length = 0;
    expect((await menuOf(next)).statusCode).toBe(304);
    expect(catalogSql()).toEqual([]);
  });
});
