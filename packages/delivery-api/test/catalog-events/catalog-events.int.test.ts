import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_SECONDS } from '../../src/webhooks/retry-schedule.js';
import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { setWebhookConfig } from '../../src/webhooks/webhook-config.js';
import { replayDelivery } from '../../src/webhooks/webhook-operator.js';
import type { WebhookRequest } from '../../src/webhooks/webhook-sender.port.js';
import { COALESCE_WINDOW_MS } from '../../src/catalog-events/catalog-events.js';
import { addSource, makeWorld, sampleMenu, type World } from '../harness.js';

let w: World;
const sent: WebhookRequest[] = [];
let answer = 200;

beforeAll(async () => {
  w = await makeWorld();
  await addSource(w, 'app', { pointIds: ['1', '2'], features: 'catalog-events' });
  // both sources have a webhook URL; only `app` has the switch
  for (const source of ['website', 'app'])
    await setWebhookConfig(
      w.db,
      w.box,
      { tenantId: 't1', source, url: 'http://127.0.0.1:9/hook', secret: `whsec_${source}_0123456789abcdef0123456789abcdef` },
      { allowInsecureLoopback: true, clock: w.clock },
    );
}, 120_000);
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});
beforeEach(async () => {
  await w.db.query('DELETE FROM webhook_attempts');
  await w.db.query('DELETE FROM webhook_deliveries');
  await w.db.query('DELETE FROM webhook_events');
  sent.length = 0;
  answer = 200;
});

const events = () =>
  w.db.query<{ source: string; type: string; body: string; order_id: string | null }>(
    `SELECT source, type, body, order_id FROM webhook_events ORDER BY occurred_at`,
  );
const dispatcher = () =>
  createWebhookDispatcher({
    db: w.db,
    box: w.box,
    clock: w.clock,
    log: () => {},
    http: {
      send: async (r) => {
        sent.push(r);
        return { status: answer };
      },
    },
  });
const stopList = (n: number) => ({
  items: Array.from({ length: n }, (_, i) => ({ id: `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`, balance: 0 })),
});

describe('catalog events (switch catalog-events)', () => {
  it('a menu push with a new revision gives menu.updated naming the point and revision, only to the switched source', async () => {
    const push = await w.call(w.pos['1'], 'POST', '/pos/v1/menu', { ...sampleMenu(), categories: [...sampleMenu().categories] });
    const revision = push.json().revision;
    const rows = await events();
    expect(rows.map((r) => [r.source, r.type])).toEqual([['app', 'menu.updated']]);
    expect(rows[0].order_id).toBeNull();
    const body = JSON.parse(rows[0].body);
    expect(body).toEqual({
      eventId: expect.any(String),
      type: 'menu.updated',
      occurredAt: w.clock.now().toISOString(),
      point: { pointId: '1', revision },
    });
    // the same content again: no new revision, no event
    await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
    expect(await events()).toHaveLength(1);
  });

  it('coalesces: 50 stop-list changes within the window give one event per point, with the latest revision', async () => {
    let last = '';
    for (let i = 1; i <= 50; i++) {
      last = (await w.call(w.pos['2'], 'POST', '/pos/v1/stop-list', stopList(i))).json().revision;
      w.clock.advance(20);
    }
    const rows = await events();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].body)).toMatchObject({ type: 'stoplist.updated', point: { pointId: '2', revision: last } });
    // after the window it is sent, and the next change is a new event
    w.clock.advance(COALESCE_WINDOW_MS);
    expect(await dispatcher().runOnce()).toBe(1);
    expect(JSON.parse(sent[0].body).point.revision).toBe(last);
    expect(sent[0].headers['X-Service-Event-Id'] ?? sent[0].headers['x-service-event-id']).toBe(JSON.parse(rows[0].body).eventId);
    await w.call(w.pos['2'], 'POST', '/pos/v1/stop-list', stopList(0));
    expect(await events()).toHaveLength(2);
  });

  it('is not due before the window ends (the dispatcher sends nothing yet)', async () => {
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', stopList(3));
    expect(await dispatcher().runOnce()).toBe(0);
    w.clock.advance(COALESCE_WINDOW_MS);
    expect(await dispatcher().runOnce()).toBe(1);
  });

  it('retries, goes dead after the schedule, and is replayed with the same body, as order events', async () => {
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', stopList(7));
    answer = 500;
    w.clock.advance(COALESCE_WINDOW_MS);
    const d = dispatcher();
    expect(await d.runOnce()).toBe(1);
    for (const s of RETRY_DELAYS_SECONDS) {
      w.clock.advance(s * 1000);
      expect(await d.runOnce()).toBe(1);
    }
    const [delivery] = await w.db.query<{ id: string; status: string }>(`SELECT id, status FROM webhook_deliveries`);
    expect(delivery.status).toBe('dead');
    answer = 200;
    await replayDelivery(w.db, delivery.id, w.clock);
    expect(await d.runOnce()).toBe(1);
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);
    expect((await w.db.query<{ status: string }>(`SELECT status FROM webhook_deliveries`))[0].status).toBe('delivered');
  });

  it('an endpoint with an explicit events list gets the catalog types it names and no others', async () => {
    const hook = (events: string[]) =>
      setWebhookConfig(
        w.db,
        w.box,
        { tenantId: 't1', source: 'app', url: 'http://127.0.0.1:9/hook', secret: 'whsec_app_0123456789abcdef0123456789abcdef', events },
        { allowInsecureLoopback: true, clock: w.clock },
      );
    await hook(['order.state_changed', 'menu.updated']);
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', stopList(13));
    expect(await events()).toHaveLength(0); // stoplist.updated is not in the list
    await w.call(w.pos['1'], 'POST', '/pos/v1/menu', { ...sampleMenu(), categories: [...sampleMenu().categories].reverse() });
    expect((await events()).map((r) => r.type)).toEqual(['menu.updated']);
    await hook(['order.state_changed', 'menu.updated', 'stoplist.updated', 'point.status_changed']);
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', stopList(14));
    expect((await events()).map((r) => r.type)).toEqual(['menu.updated', 'stoplist.updated']);
    await setWebhookConfig(
      w.db,
      w.box,
      { tenantId: 't1', source: 'app', url: 'http://127.0.0.1:9/hook', secret: 'whsec_app_0123456789abcdef0123456789abcdef' },
      { allowInsecureLoopback: true, clock: w.clock },
    );
  });

  it('sends nothing when no source has the switch (today’s contract: not sent)', async () => {
    await w.operator.sourceFeatures('t1', 'app', undefined, 'catalog-events');
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', stopList(11));
    expect(await events()).toHaveLength(0);
    await w.operator.sourceFeatures('t1', 'app', 'catalog-events');
  });
});

describe('point.status_changed (switch catalog-events)', () => {
  it('reports a POS going offline and coming back, once per change; the first look sends nothing', async () => {
    const watcher = w.services.pointStatusWatcher;
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    await watcher.runOnce(); // first look: records the state only
    expect((await events()).filter((e) => e.type === 'point.status_changed')).toHaveLength(0);
    w.clock.advance(91_000);
    expect(await watcher.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await watcher.runOnce()).toBe(0);
    let status = (await events()).filter((e) => e.type === 'point.status_changed').map((e) => JSON.parse(e.body).point);
    expect(status).toEqual([{ pointId: '1', status: 'offline' }]);
    w.clock.advance(COALESCE_WINDOW_MS);
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    await watcher.runOnce();
    status = (await events()).filter((e) => e.type === 'point.status_changed').map((e) => JSON.parse(e.body).point);
    expect(status).toEqual([
      { pointId: '1', status: 'offline' },
      { pointId: '1', status: 'alive' },
    ]);
  });
});
