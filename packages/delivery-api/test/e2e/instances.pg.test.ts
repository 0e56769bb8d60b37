/**
 * Several delivery API processes on one PostgreSQL: two processes started as in production
 * (src/main.ts, through the crash harness's world, without any crash point), driven concurrently. With REDIS_URL
 * set they share Redis too. PostgreSQL only: vitest.config.ts collects `*.pg.test.ts` only when DATABASE_URL is
 * PostgreSQL (the PostgreSQL pass of .ci/run).
 */
import { buildSignedHeaders, randomIds } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWebhookConfig } from '../../src/webhooks/webhook-config.js';
import { makeCrashWorld, orderFor, type Child, type CrashWorld } from '../crash/crash-world.js';
import { startReceiver, WEBHOOK_SECRET } from '../webhooks/webhook-world.js';

let w: CrashWorld;
let a: Child;
let b: Child;
beforeAll(async () => {
  w = await makeCrashWorld(process.env.DATABASE_URL!);
  [a, b] = await Promise.all([w.start(), w.start()]);
}, 120_000);
afterAll(async () => w?.close());

type Row = Record<string, any>;

describe('two delivery API processes on one database', () => {
  it('a request id used on A is refused on B', async () => {
    const headers = {
      ...buildSignedHeaders({
        apiKey: w.partner.apiKey,
        secret: w.partner.apiSecret,
        method: 'GET',
        path: '/v1/points',
        body: '',
        requestId: randomIds.uuid(),
        now: new Date(),
      }),
    };
    expect((await fetch(`${a.url}/v1/points`, { headers })).status).toBe(200);
    const again = await fetch(`${b.url}/v1/points`, { headers });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ error: 'unauthorized' });
  });

  it('50 identical orders split across both processes create exactly one order', async () => {
    const order = await orderFor(a, w, 1, 'INST-1', { coupon: false });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).call(w.partner, 'POST', '/v1/orders', order)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 201 || s === 409)).toBe(true);
    const ids = new Set(answers.filter((r) => r.status < 300).map((r) => r.json.id));
    expect(ids.size).toBe(1);
    expect(await w.db.query<Row>(`SELECT id FROM orders WHERE external_order_id = 'INST-1'`)).toHaveLength(1);
  });

  it('the POS claims from either process: concurrent claims hand each order to one claim, state reported on the other', async () => {
    const ids: string[] = [];
    for (let n = 2; n < 6; n++) {
      const r = await b.call(w.partner, 'POST', '/v1/orders', await orderFor(b, w, n, `INST-${n}`, { coupon: false }));
      expect(r.status).toBe(201);
      ids.push(r.json.id);
    }
    const [ca, cb] = await Promise.all([
      a.call(w.pos, 'POST', '/pos/v1/orders/claim', { limit: 50 }),
      b.call(w.pos, 'POST', '/pos/v1/orders/claim', { limit: 50 }),
    ]);
    expect([ca.status, cb.status]).toEqual([200, 200]);
    const claimed = [...ca.json.orders, ...cb.json.orders].filter((o: Row) => ids.includes(o.orderId));
    expect(claimed.map((o: Row) => o.orderId).sort()).toEqual([...ids].sort()); // each once, none twice
    const fromA = new Set(ca.json.orders.map((o: Row) => o.orderId));
    for (const o of claimed) {
      const other = fromA.has(o.orderId) ? b : a; // report through the process that did not hand out the claim
      const r = await other.call(w.pos, 'POST', `/pos/v1/orders/${o.orderId}/state`, {
        claimId: o.claimId,
        stableId: o.orderId,
        state: 'created_verified',
        posOrderId: `pos-${o.orderId}`,
      });
      expect(r.status).toBe(200);
    }
    const states = await w.db.query<Row>(`SELECT state FROM orders WHERE id = ANY($1::uuid[])`, [ids]);
    expect(states.map((s) => s.state)).toEqual(ids.map(() => 'created_verified'));
  });

  it('the webhook dispatchers of both processes deliver each event exactly once', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      await setWebhookConfig(
        w.db,
        w.box,
        { tenantId: 't1', source: 'website', url: receiver.url, secret: WEBHOOK_SECRET },
        { allowInsecureLoopback: true },
      );
      for (let n = 6; n < 12; n++) {
        const r = await (n % 2 ? a : b).call(w.partner, 'POST', '/v1/orders', await orderFor(a, w, n, `INST-${n}`, { coupon: false }));
        expect(r.status).toBe(201);
      }
      const [{ n: events }] = await w.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries`);
      expect(events).toBeGreaterThanOrEqual(6);
      // Real processes poll every second: wait (bounded) until every delivery is delivered.
      const deadline = Date.now() + 60_000;
      let pending = events;
      while (pending > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        [{ n: pending }] = await w.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'`);
      }
      expect(pending).toBe(0);
      const ids = receiver.requests.map((x) => x.headers['x-service-event-id']);
      expect(ids).toHaveLength(events);
      expect(new Set(ids).size).toBe(events); // no event sent twice
      const attempts = await w.db.query<{ attempt_count: number }>(`SELECT attempt_count FROM webhook_deliveries`);
      expect(attempts.every((d) => d.attempt_count === 1)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
