import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, sampleMenu, type World } from './harness.js';
import { countingDb, labels, type SentStatement } from './support/counting-db.js';
import { secondInstance, type Instance } from './support/instances.js';

// The catalog revision cache (catalog/catalog-revision-cache.ts) on one database shared by two app instances:
// a change made through either instance, or by hand-written SQL, reaches the other through NOTIFY.
const log: SentStatement[] = [];
let w: World;
let b: Instance;
beforeAll(async () => {
  w = await makeWorld({ wrapDb: (db) => countingDb(db, log) });
  await w.app.ready();
  b = await secondInstance(w, w.db);
});
afterAll(async () => {
  await b.app.close();
  await w.app.close();
  await w.db.close();
});
beforeEach(async () => {
  await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
  await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [] });
});

/**
 * The SQL the world's instance sent during `fn`, without authentication's: the request-id insert of every signed
 * request and the key lookup when the 5-second credential cache has expired.
 */
async function sqlOf<T>(fn: () => Promise<T>): Promise<{ out: T; sql: string[] }> {
  log.length = 0;
  const out = await fn();
  return { out, sql: labels(log).filter((s) => !s.startsWith('INSERT INTO request_ids') && !s.startsWith('SELECT id, kind, api_key')) };
}

const menuOf = (etag?: string) => w.call(w.partner, 'GET', '/v1/points/1/menu', undefined, etag ? { 'if-none-match': etag } : {});

describe('catalog revision cache', () => {
  it('a cached 304 reads nothing but the request id: zero catalog queries', async () => {
    const rev = (await menuOf()).json().revision;
    await menuOf(rev); // the first read after the push fills the cache
    const { out, sql } = await sqlOf(() => menuOf(rev));
    expect(out.statusCode).toBe(304);
    expect(out.headers['content-length']).toBeUndefined();
    expect(out.headers.etag).toBe(rev);
    expect(sql).toEqual([]);
    expect(w.services.catalogRevisions.serving).toBe(true);
  });

  it('a menu pushed through a second instance invalidates the first instance’s cache', async () => {
    const rev = (await menuOf()).json().revision;
    expect((await menuOf(rev)).statusCode).toBe(304);
    const m = sampleMenu();
    m.items[0].priceMinor += 100;
    expect((await b.call(w.pos['1'], 'POST', '/pos/v1/menu', m)).statusCode).toBe(200);
    const after = await menuOf(rev);
    expect(after.statusCode).toBe(200);
    expect(after.json().revision).not.toBe(rev);
    expect(after.json().items[0].price.amountMinor).toBe(m.items[0].priceMinor);
  });

  it('a stop-list change through the second instance changes the ETag on the first', async () => {
    const rev = (await menuOf()).json().revision;
    await menuOf(rev);
    await b.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [{ id: sampleMenu().items[0].id, balance: 0 }] });
    const after = await menuOf(rev);
    expect(after.statusCode).toBe(200);
    expect(after.json().items[0]).toMatchObject({ available: false, unavailableReason: 'stop_list' });
  });

  it('a route switched off by hand-written SQL answers 404 at once (authorisation is not served stale)', async () => {
    const rev = (await menuOf()).json().revision;
    await menuOf(rev);
    await w.db.query(`UPDATE routes SET active = false WHERE tenant_id = 't1' AND point_id = '1'`);
    try {
      expect((await menuOf(rev)).statusCode).toBe(404);
    } finally {
      await w.db.query(`UPDATE routes SET active = true WHERE tenant_id = 't1' AND point_id = '1'`);
    }
    expect((await menuOf(rev)).statusCode).toBe(304);
  });

  it('a key without the point gets 403 even when the point is cached', async () => {
    const rev = (await menuOf()).json().revision;
    await menuOf(rev);
    const narrow = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['2'] });
    const r = await w.call(narrow, 'GET', '/v1/points/1/menu', undefined, { 'if-none-match': rev });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual({ error: 'forbidden' });
  });

  it('stale after 30 minutes also when served from the cache (sync time + injected clock)', async () => {
    const rev = (await menuOf()).json().revision;
    await menuOf(rev);
    w.clock.advance(30 * 60_000);
    const at30 = await sqlOf(() => menuOf(rev));
    expect(at30.out.statusCode).toBe(304);
    expect(at30.sql).toEqual([]);
    w.clock.advance(1000);
    const stale = await sqlOf(() => menuOf(rev));
    expect(stale.out.statusCode).toBe(200);
    expect(stale.out.json().stale).toBe(true);
    expect(stale.sql).toEqual([]); // from the cache, yet stale: computed from the cached sync time
  });
});
