import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import type { Db } from '@app/shared';
import type { SecretBox } from '../src/auth/secret-box.js';
import { createWebhookDispatcher } from '../src/webhooks/dispatcher.js';
import { createWebhookMetrics } from '../src/webhooks/webhook-metrics.js';
import { makeWorld, sampleMenu, type World } from './harness.js';
import { checkoutOrder, createOrder } from './order-factory.js';
import { enqueueWebsiteEvent, memoryLog, newClock, openWebhookDb, subscribeWebsite } from './webhooks/webhook-world.js';

// /metrics counts order creation outcomes by error code, webhook attempts by outcome and the
// outbox lag.
const sample = (text: string, line: string): number | undefined => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

describe('order creation outcomes', () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
    await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    await w.call(w.pos['1'], 'POST', '/pos/v1/streets', { streets: [{ name: 'Тверская улица', city: 'Москва' }] });
  });
  afterAll(async () => {
    await w.app.close();
    await w.db.close();
  });

  it('counts created, replayed and each refusal by its error code', async () => {
    const { order } = await checkoutOrder(w);
    expect((await createOrder(w, order)).statusCode).toBe(201);
    expect((await createOrder(w, order)).statusCode).toBe(200);
    expect((await createOrder(w, { ...order, guest: { name: 'Пётр', phone: '+79990000001' } })).json()).toEqual({ error: 'idempotency_conflict' });
    const text = (await w.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(text, 'delivery_order_creations_total{outcome="created"}')).toBe(1);
    expect(sample(text, 'delivery_order_creations_total{outcome="replayed"}')).toBe(1);
    expect(sample(text, 'delivery_order_creations_total{outcome="idempotency_conflict"}')).toBe(1);
    // every signed request consumed its X-Request-ID once, timed by store and outcome
    expect(sample(text, 'delivery_request_id_store_seconds_count{store="database",outcome="fresh"}')).toBeGreaterThanOrEqual(7);
    expect(sample(text, 'delivery_request_id_store_seconds_count{store="database",outcome="reused"}')).toBeUndefined();
  });
});

describe('webhook attempts and outbox lag', () => {
  let db: Db;
  let box: SecretBox;
  beforeAll(async () => ({ db, box } = await openWebhookDb()));
  afterAll(async () => db.close());

  it('a refused attempt counts as retry, a 2xx as delivered; the lag is measured from when the delivery was due', async () => {
    const clock = newClock();
    const registry = new Registry();
    await subscribeWebsite(db, box, { clock });
    await enqueueWebsiteEvent(db, '7e57a11d-0000-4000-8000-00000000f001');
    let status = 500;
    const d = createWebhookDispatcher({
      db,
      box,
      clock,
      log: memoryLog(),
      http: { send: async () => ({ status }) },
      metrics: createWebhookMetrics(registry),
    });
    clock.advance(2_000); // claimed 2 s after the event was written
    expect(await d.runOnce()).toBe(1);
    status = 204;
    clock.advance(10_000 + 500); // the retry is due 10 s after the failure; claimed 0.5 s late
    expect(await d.runOnce()).toBe(1);
    const text = await registry.metrics();
    expect(sample(text, 'delivery_webhook_attempts_total{outcome="retry"}')).toBe(1);
    expect(sample(text, 'delivery_webhook_attempts_total{outcome="delivered"}')).toBe(1);
    expect(sample(text, 'delivery_webhook_outbox_lag_seconds_count')).toBe(2);
    expect(sample(text, 'delivery_webhook_outbox_lag_seconds_sum')).toBeCloseTo(2.5, 3);
  });
});
