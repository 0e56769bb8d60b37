import { randomUUID } from 'node:crypto';
import { ManualClock, type Db } from '@app/shared';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RequestIdsRepo } from '../../src/auth/request-ids.repo.js';
import { createRetentionMetrics } from '../../src/retention/retention-metrics.js';
import { Retention } from '../../src/retention/retention.js';
import { openWebhookDb, resetOutbox } from '../webhooks/webhook-world.js';

const NOW = new Date('2026-12-31T12:00:00Z');
const DAY = 86_400_000;
let db: Db;
beforeAll(async () => {
  ({ db } = await openWebhookDb());
});
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await resetOutbox(db);
  await db.query('DELETE FROM request_ids');
});

/** A webhook event with one delivery in `status` (delivered/dead at `at`) and `attempts` attempt rows. */
async function delivery(status: 'pending' | 'delivered' | 'dead', at: Date, attempts = 2): Promise<string> {
  const eventId = randomUUID();
  const id = randomUUID();
  await db.query(
    `INSERT INTO webhook_events (event_id, tenant_id, source, order_id, type, occurred_at, body) VALUES ($1, 't1', 'website', $2, 'order.state_changed', $3, '{}')`,
    [eventId, randomUUID(), at.toISOString()],
  );
  await db.query(
    `INSERT INTO webhook_deliveries (id, event_id, tenant_id, source, status, attempt_count, next_attempt_at, delivered_at, dead_at, created_at, updated_at)
     VALUES ($1, $2, 't1', 'website', $3, $4, $5, $6, $7, $8, $8)`,
    [
      id,
      eventId,
      status,
      attempts,
      status === 'pending' ? at.toISOString() : null,
      status === 'delivered' ? at.toISOString() : null,
      status === 'dead' ? at.toISOString() : null,
      at.toISOString(),
    ],
  );
  for (let n = 1; n <= attempts; n++) {
    await db.query(`INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, duration_ms, success) VALUES ($1, $2, $3, 10, $4)`, [
      id,
      n,
      at.toISOString(),
      n === attempts && status === 'delivered',
    ]);
  }
  return id;
}

function world(opts: { batchSize?: number; redis?: boolean } = {}) {
  const registry = new Registry();
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  const log = { info: (obj: object, msg: string) => lines.push({ obj: obj as Record<string, unknown>, msg }), warn: () => {} };
  const clock = new ManualClock(NOW);
  const retention = new Retention({
    db,
    clock,
    log,
    metrics: createRetentionMetrics(registry),
    webhookRetentionDays: 30,
    requestIdsInDatabase: !opts.redis,
    batchSize: opts.batchSize ?? 500,
  });
  return { retention, registry, lines, clock };
}

const count = async (table: string) => Number((await db.query<{ n: string }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
const metric = async (r: Registry, kind: string) =>
  (await r.getSingleMetric('delivery_retention_purged_total')!.get()).values.find((v) => v.labels.kind === kind)?.value;

describe('Retention', () => {
  it('deletes used request ids past their window in batches, keeps the live ones', async () => {
    const repo = new RequestIdsRepo(db);
    for (let i = 0; i < 7; i++) await repo.consume('key-aaaa', randomUUID(), new Date(NOW.getTime() - DAY), new Date(NOW.getTime() - 1));
    const live = randomUUID();
    await repo.consume('key-aaaa', live, NOW, new Date(NOW.getTime() + 600_000));
    const { retention, registry, lines } = world({ batchSize: 3 });
    expect((await retention.runOnce()).request_ids).toBe(7);
    expect(await db.query(`SELECT request_id FROM request_ids`)).toEqual([{ request_id: live }]);
    expect(await metric(registry, 'request_ids')).toBe(7);
    expect(lines).toEqual([{ msg: 'retention purge', obj: { kind: 'request_ids', rows: 7, expiredBefore: NOW.toISOString() } }]);
  });

  it('leaves request ids alone when they live in Redis', async () => {
    await new RequestIdsRepo(db).consume('key-aaaa', randomUUID(), new Date(NOW.getTime() - DAY), new Date(NOW.getTime() - 1));
    expect((await world({ redis: true }).retention.runOnce()).request_ids).toBe(0);
    expect(await count('request_ids')).toBe(1);
  });

  it('deletes deliveries delivered more than 30 days ago with their attempts and events; keeps recent, dead and pending ones', async () => {
    const old = [];
    for (let i = 0; i < 5; i++) old.push(await delivery('delivered', new Date(NOW.getTime() - 31 * DAY - i)));
    const recent = await delivery('delivered', new Date(NOW.getTime() - 29 * DAY));
    const dead = await delivery('dead', new Date(NOW.getTime() - 90 * DAY));
    const pending = await delivery('pending', new Date(NOW.getTime() - 90 * DAY));
    const { retention, registry, lines } = world({ batchSize: 2 });
    expect(await retention.runOnce()).toEqual({ request_ids: 0, webhook_deliveries: 5, webhook_attempts: 10, webhook_events: 5 });
    const left = (await db.query<{ id: string }>(`SELECT id FROM webhook_deliveries ORDER BY id`)).map((r) => r.id);
    expect(left).toEqual([recent, dead, pending].sort());
    expect(await count('webhook_attempts')).toBe(6);
    expect(await count('webhook_events')).toBe(3);
    expect(await metric(registry, 'webhook_attempts')).toBe(10);
    expect(lines.map((l) => [l.obj.kind, l.obj.rows])).toEqual([
      ['webhook_deliveries', 5],
      ['webhook_attempts', 10],
      ['webhook_events', 5],
    ]);
    expect(lines[0].obj.deliveredBefore).toBe(new Date(NOW.getTime() - 30 * DAY).toISOString());
  });

  it('the age follows the injected clock: a delivery becomes eligible exactly after 30 days', async () => {
    await delivery('delivered', new Date(NOW.getTime() - 30 * DAY));
    const w = world();
    expect((await w.retention.runOnce()).webhook_deliveries).toBe(0);
    w.clock.advance(1);
    expect((await w.retention.runOnce()).webhook_deliveries).toBe(1);
    expect(await count('webhook_deliveries')).toBe(0);
  });

  it('an event whose other delivery is still kept is not deleted', async () => {
    const id = await delivery('delivered', new Date(NOW.getTime() - 40 * DAY));
    const [{ event_id: eventId }] = await db.query<{ event_id: string }>(`SELECT event_id FROM webhook_deliveries WHERE id = $1`, [id]);
    await db.query(
      `INSERT INTO webhook_deliveries (id, event_id, tenant_id, source, status, dead_at, created_at, updated_at) VALUES ($1, $2, 't1', 'website', 'dead', $3, $3, $3)`,
      [randomUUID(), eventId, NOW.toISOString()],
    );
    expect(await world().retention.runOnce()).toMatchObject({ webhook_deliveries: 1, webhook_events: 0 });
    expect(await count('webhook_events')).toBe(1);
  });

  it('a run with nothing to delete logs nothing', async () => {
    const w = world();
    await w.retention.runOnce();
    expect(w.lines).toEqual([]);
  });
});
