import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, signWebhook, type Db } from '@app/shared';
import type { SecretBox } from '../../src/auth/secret-box.js';
import { DeliveriesRepo } from '../../src/webhooks/deliveries.repo.js';
import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { enqueueOrderEvent } from '../../src/webhooks/outbox.js';
import { RETRY_DELAYS_SECONDS } from '../../src/webhooks/retry-schedule.js';
import {
  makeOrderView,
  memoryLog,
  newClock,
  openWebhookDb,
  resetOutbox,
  startReceiver,
  subscribeWebsite,
  enqueueWebsiteEvent,
  T0,
  WEBHOOK_SECRET,
  type Reply,
  type TestReceiver,
} from './webhook-world.js';

interface Vector {
  name: string;
  secret: string;
  timestamp: string;
  eventId: string;
  body: string;
  signature: string;
}
const VECTORS = JSON.parse(readFileSync(join(import.meta.dirname, '../../../partner-sdk/test/webhook-vectors.json'), 'utf8')) as Vector[];

let db: Db;
let box: SecretBox;
let receiver: TestReceiver | undefined;
beforeAll(async () => ({ db, box } = await openWebhookDb()));
afterAll(async () => db.close());
beforeEach(async () => resetOutbox(db));
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function setup(script: (n: number) => Reply, secret = WEBHOOK_SECRET) {
  receiver = await startReceiver(script);
  await subscribeWebsite(db, box, { url: receiver.url, secret });
  return receiver;
}

async function enqueue(eventId: string, occurredAt = T0, order = makeOrderView()) {
  await enqueueWebsiteEvent(db, eventId, { type: 'order.state_changed', order, occurredAt });
}

const delivery = async () =>
  (
    await db.query<{ id: string; status: string; next_attempt_at: Date | null; schedule_step: number }>(
      'SELECT id, status, next_attempt_at, schedule_step FROM webhook_deliveries',
    )
  )[0]!;
const attempts = async () =>
  db.query<{ attempt_no: number; started_at: Date; http_status: number | null; error: string | null; duration_ms: number; success: boolean }>(
    'SELECT attempt_no, started_at, http_status, error, duration_ms, success FROM webhook_attempts ORDER BY attempt_no',
  );
const EID = '0b6f7c1e-2d3a-4b5c-9d8e-7f6a5b4c3d2e';

describe('webhook dispatcher', () => {
  it.each(VECTORS.map((v) => [v.name, v] as const))('sends the known-answer vector "%s" byte for byte with its signature', async (_n, v) => {
    const r = await setup(() => ({ status: 204 }), v.secret);
    const body = JSON.parse(v.body);
    const order = makeOrderView({ ...body.order, route: { ...makeOrderView().route, ...body.order.route } });
    await db.tx((q) =>
      enqueueOrderEvent(q, { tenantId: 't1', source: 'website', type: body.type, order, occurredAt: new Date(body.occurredAt), eventId: v.eventId }),
    );
    const clock = new ManualClock(new Date(Number(v.timestamp) * 1000));
    expect(await createWebhookDispatcher({ db, box, clock, log: memoryLog() }).runOnce()).toBe(1);
    expect(r.requests).toHaveLength(1);
    const got = r.requests[0]!;
    expect(got.body).toBe(v.body);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-service-event-id']).toBe(v.eventId);
    expect(got.headers['x-service-timestamp']).toBe(v.timestamp);
    expect(got.headers['x-service-signature']).toBe(v.signature);
    expect((await delivery()).status).toBe('delivered');
  });

  it('a receiver failing 3 times then succeeding gets the event exactly on the 10 s / 1 min / 5 min schedule, same id and bytes', async () => {
    const r = await setup((n) => (n <= 3 ? { status: 500 } : { status: 200 }));
    await enqueue(EID);
    const clock = newClock();
    const d = createWebhookDispatcher({ db, box, clock, log: memoryLog() });
    const sentAt: number[] = [];
    const offsets = [0, 10, 60, 300];
    let elapsed = 0;
    for (const off of offsets) {
      // One second early: nothing is due.
      clock.set(new Date(T0.getTime() + (elapsed + off - 1) * 1000));
      expect(await d.runOnce()).toBe(0);
      clock.advance(1000);
      expect(await d.runOnce()).toBe(1);
      elapsed += off;
      sentAt.push(Number(r.requests.at(-1)!.headers['x-service-timestamp']));
    }
    expect(sentAt.map((s) => s - T0.getTime() / 1000)).toEqual([0, 10, 70, 370]);
    expect(new Set(r.requests.map((x) => x.headers['x-service-event-id']))).toEqual(new Set([EID]));
    expect(new Set(r.requests.map((x) => x.body)).size).toBe(1);
    const log = await attempts();
    expect(log.map((a) => [a.attempt_no, a.http_status, a.success])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 200, true],
    ]);
    expect(log.every((a) => a.duration_ms >= 0)).toBe(true);
    expect(log[0]!.error).toBe('HTTP 500');
    expect((await delivery()).status).toBe('delivered');
    clock.advance(24 * 3600 * 1000);
    expect(await d.runOnce()).toBe(0);
  });

  it('ends in dead after the last retry (7 attempts: 0, +10 s, +1 min, +5 min, +30 min, +2 h, +6 h)', async () => {
    const r = await setup(() => ({ status: 503 }));
    await enqueue(EID);
    const clock = newClock();
    const log = memoryLog();
    const d = createWebhookDispatcher({ db, box, clock, log });
    expect(await d.runOnce()).toBe(1);
    for (const delay of RETRY_DELAYS_SECONDS) {
      clock.advance(delay * 1000);
      expect(await d.runOnce()).toBe(1);
    }
    expect(r.requests).toHaveLength(7);
    const row = await delivery();
    expect(row.status).toBe('dead');
    expect(row.next_attempt_at).toBeNull();
    clock.advance(48 * 3600 * 1000);
    expect(await d.runOnce()).toBe(0);
    expect(log.lines.some((l) => l.startsWith('webhook delivery dead'))).toBe(true);
  });

  it('does not follow a 3xx: it is a failure and the Location is never requested', async () => {
    const r = await setup((_n) => ({ status: 302, headers: { location: '/elsewhere' } }));
    await enqueue(EID);
    const clock = newClock();
    expect(await createWebhookDispatcher({ db, box, clock, log: memoryLog() }).runOnce()).toBe(1);
    expect(r.requests.map((x) => x.path)).toEqual(['/hook']);
    const [a] = await attempts();
    expect(a).toMatchObject({ http_status: 302, success: false, error: 'HTTP 302' });
    const row = await delivery();
    expect(row.status).toBe('pending');
    expect(new Date(row.next_attempt_at!).getTime()).toBe(T0.getTime() + 10_000);
  });

  it('cuts a receiver that never answers at the timeout (200 ms here; 5 s by default)', async () => {
    const r = await setup(() => 'hang');
    await enqueue(EID);
    const d = createWebhookDispatcher({ db, box, clock: newClock(), log: memoryLog(), timeoutMs: 200 });
    const t0 = Date.now();
    expect(await d.runOnce()).toBe(1);
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(3000);
    expect(r.requests).toHaveLength(1);
    const [a] = await attempts();
    expect(a).toMatchObject({ http_status: null, success: false, error: 'timeout after 200 ms' });
    expect(a!.duration_ms).toBeGreaterThanOrEqual(190);
    expect((await delivery()).status).toBe('pending');
  });

  it('a network error (nothing listening) is a failure with the error recorded', async () => {
    const r = await setup(() => ({ status: 200 }));
    await r.close();
    receiver = undefined;
    await enqueue(EID);
    expect(await createWebhookDispatcher({ db, box, clock: newClock(), log: memoryLog() }).runOnce()).toBe(1);
    const [a] = await attempts();
    expect(a!.success).toBe(false);
    expect(a!.error).toMatch(/ECONNREFUSED/);
  });

  it('a dispatcher killed mid-delivery (lease taken, process gone): a restarted one delivers after the lease expires, same eventId', async () => {
    const r = await setup(() => ({ status: 200 }));
    await enqueue(EID);
    const clock = newClock();
    // The "killed" instance: claimed with a 60 s lease and never finished.
    const claimed = await new DeliveriesRepo(db).claimDue(clock.now(), 10, 60, '99999999-9999-4999-8999-999999999999');
    expect(claimed.map((c) => c.eventId)).toEqual([EID]);
    const restarted = createWebhookDispatcher({ db, box, clock, log: memoryLog(), leaseSeconds: 60 });
    clock.advance(59_000);
    expect(await restarted.runOnce()).toBe(0);
    clock.advance(1000);
    expect(await restarted.runOnce()).toBe(1);
    expect(r.requests.map((x) => x.headers['x-service-event-id'])).toEqual([EID]);
    expect((await delivery()).status).toBe('delivered');
  });

  it('a restart keeps the schedule: a new dispatcher honours next_attempt_at stored by the old one', async () => {
    const r = await setup((n) => (n === 1 ? { status: 500 } : { status: 200 }));
    await enqueue(EID);
    const clock = newClock();
    expect(await createWebhookDispatcher({ db, box, clock, log: memoryLog() }).runOnce()).toBe(1);
    const fresh = createWebhookDispatcher({ db, box, clock, log: memoryLog() });
    clock.advance(9_000);
    expect(await fresh.runOnce()).toBe(0);
    clock.advance(1_000);
    expect(await fresh.runOnce()).toBe(1);
    expect(r.requests).toHaveLength(2);
  });

  it('two dispatchers running concurrently on the same database never send the same due delivery twice', async () => {
    const r = await setup(() => ({ status: 200 }));
    const ids = Array.from({ length: 30 }, (_, i) => `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (const id of ids) await enqueue(id);
    const clock = newClock();
    const a = createWebhookDispatcher({ db, box, clock, log: memoryLog(), batchSize: 4 });
    const b = createWebhookDispatcher({ db, box, clock, log: memoryLog(), batchSize: 4 });
    let total = 0;
    for (let round = 0; round < 20 && total < ids.length; round++) {
      const counts = await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
      total += counts.reduce((s, n) => s + n, 0);
    }
    expect(total).toBe(ids.length);
    expect(await Promise.all([a.runOnce(), b.runOnce()])).toEqual([0, 0]);
    const sent = r.requests.map((x) => x.headers['x-service-event-id']);
    expect(sent).toHaveLength(ids.length);
    expect(new Set(sent)).toEqual(new Set(ids));
  });

  it('signs with the current secret at send time (X-Service-Timestamp is the send time, not occurredAt)', async () => {
    const r = await setup(() => ({ status: 200 }));
    await enqueue(EID, new Date(T0.getTime() - 3600_000));
    const clock = newClock();
    await createWebhookDispatcher({ db, box, clock, log: memoryLog() }).runOnce();
    const got = r.requests[0]!;
    expect(got.headers['x-service-timestamp']).toBe(String(T0.getTime() / 1000));
    expect(got.headers['x-service-signature']).toBe(signWebhook(WEBHOOK_SECRET, String(T0.getTime() / 1000), EID, got.body));
  });
});
