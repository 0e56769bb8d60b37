import { randomIds } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxOrderEvents } from '../src/webhooks/outbox.js';
import { setWebhookConfig } from '../src/webhooks/webhook-config.js';
import { MARGHERITA, makeWorld, sampleMenu, type World } from './harness.js';
import { checkoutOrder, createOrder } from './order-factory.js';
import { countingDb, labels, type SentStatement } from './support/counting-db.js';

// Statements (= round trips) per request on the hot paths, counted at the Db port with the real webhook outbox
// and a subscribed endpoint; BEGIN and COMMIT count as the PostgreSQL driver sends them. docs/performance.md
// records these numbers: a change here is a change there.
const log: SentStatement[] = [];
let w: World;
beforeAll(async () => {
  w = await makeWorld({ loyaltyRequestsPerMinute: 100000, wrapDb: (db) => countingDb(db, log), orderEvents: createOutboxOrderEvents(randomIds) });
  await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
  await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
  await w.call(w.pos['1'], 'POST', '/pos/v1/streets', { streets: [{ name: 'Тверская улица', city: 'Москва' }] });
  await setWebhookConfig(
    w.db,
    w.box,
    { tenantId: 't1', source: 'website', url: 'https://partner.example/hooks', secret: 'x'.repeat(32) },
    { allowInsecureLoopback: false, clock: w.clock },
  );
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

async function counted<T>(fn: () => Promise<T>): Promise<{ out: T; sql: string[] }> {
  log.length = 0;
  const out = await fn();
  return { out, sql: labels(log) };
}

describe('statements per request', () => {
  it('GET /menu with If-None-Match (304): the request id only', async () => {
    const rev = (await w.call(w.partner, 'GET', '/v1/points/1/menu')).json().revision;
    await w.call(w.partner, 'GET', '/v1/points/1/menu', undefined, { 'if-none-match': rev });
    const { out, sql } = await counted(() => w.call(w.partner, 'GET', '/v1/points/1/menu', undefined, { 'if-none-match': rev }));
    expect(out.statusCode).toBe(304);
    expect(sql).toEqual([expect.stringMatching(/^INSERT INTO request_ids/)]);
  });

  it('POST /v1/orders without loyalty: 6 statements, no BEGIN/COMMIT (was 12)', async () => {
    const { order } = await checkoutOrder(w, { items: [{ id: MARGHERITA, quantity: '5' }] });
    const { out, sql } = await counted(() => createOrder(w, order));
    expect(out.statusCode).toBe(201);
    expect(sql).toEqual([
      expect.stringMatching(/^INSERT INTO request_ids/),
      expect.stringMatching(/^SELECT \(SELECT to_jsonb\(o\) FROM orders/), // idempotency + own holds
      expect.stringMatching(/^SELECT p\.\*/), // point, route, catalog revisions
      expect.stringMatching(/^SELECT streets AS doc/),
      expect.stringMatching(/^SELECT \* FROM tenants/),
      expect.stringMatching(/^WITH legs AS/), // order + legs + outbox, one statement
    ]);
    const events = await w.db.query<{ type: string }>('SELECT type FROM webhook_events WHERE order_id = $1 ORDER BY type', [out.json().id]);
    expect(events.map((e) => e.type)).toEqual(['order.payment_recorded', 'order.state_changed']);
  });

  it('POST /v1/orders with coupon and bonus: 10 statements (was 17); the four leg writes are recovery points', async () => {
    const { order } = await checkoutOrder(w, { items: [{ id: MARGHERITA, quantity: '3' }], coupon: 'WELCOME200', bonus: 30000, method: 'online' });
    const { out, sql } = await counted(() => createOrder(w, order));
    expect(out.statusCode).toBe(201);
    expect(sql.length).toBe(10);
    expect(sql.filter((s) => /loyalty_legs/.test(s) && /^(INSERT|UPDATE)/.test(s))).toHaveLength(4);
    expect(sql).not.toContain('BEGIN');
    const linked = await w.db.query('SELECT 1 FROM loyalty_legs WHERE order_id = $1', [out.json().id]);
    expect(linked).toHaveLength(2);
  });

  it('an idempotent repeat: 2 statements (request id, order lookup)', async () => {
    const { order } = await checkoutOrder(w);
    expect((await createOrder(w, order)).statusCode).toBe(201);
    const { out, sql } = await counted(() => createOrder(w, order));
    expect(out.statusCode).toBe(200);
    expect(sql).toHaveLength(2);
  });
});
