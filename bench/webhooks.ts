/**
 * Webhook benchmark: deliveries per second to a local receiver, and outbox lag (state change committed → first
 * attempt started, p50/p99) at a steady event rate. Runs on PGlite, and on PostgreSQL too when DATABASE_URL is set.
 * Run: npx tsx bench/webhooks.ts [--events 1000] [--rate 100] [--seconds 5]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { migrate, openDb, type Db } from '@app/shared';
import { SecretBox } from '@app/delivery-api';
import type { OrderView } from '@app/delivery-api';
import { createWebhookDispatcher } from '@app/delivery-api';
import { enqueueOrderEvent } from '@app/delivery-api';
import { setWebhookConfig } from '@app/delivery-api';

const { values: args } = parseArgs({
  options: { events: { type: 'string', default: '1000' }, rate: { type: 'string', default: '100' }, seconds: { type: 'string', default: '5' } },
});
const MIGRATIONS = join(import.meta.dirname, '..', 'packages', 'delivery-api', 'migrations');
const silent = { info() {}, warn() {}, error() {} };

const order = (): OrderView => ({
  id: randomUUID(),
  externalOrderId: `B-${randomUUID().slice(0, 8)}`,
  source: 'website',
  state: 'claimed',
  payloadSha256: 'a'.repeat(64),
  route: {
    tenantId: 't1',
    source: 'website',
    externalPointId: '101',
    organizationId: 'o',
    terminalGroupId: 'tg',
    orderTypeId: 'ot',
    operatorUserId: 'op',
    originName: 'web',
  },
  posOrderId: null,
  posDeliveryId: null,
  deliveryStatus: null,
  deliveryStatusAt: null,
  cancelState: 'none',
  cancelReason: null,
  cancelDetail: null,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
});

async function enqueue(db: Db): Promise<void> {
  await db.tx((q) =>
    enqueueOrderEvent(q, {
      tenantId: 't1',
      source: 'website',
      type: 'order.state_changed',
      order: order(),
      occurredAt: new Date(),
      eventId: randomUUID(),
    }),
  );
}

async function setup(db: Db, url: string, box: SecretBox): Promise<void> {
  await migrate(db, MIGRATIONS);
  await db.query(`INSERT INTO tenants (id, name) VALUES ('t1', 'Bench') ON CONFLICT DO NOTHING`);
  await db.query(`INSERT INTO sources (tenant_id, source) VALUES ('t1', 'website') ON CONFLICT DO NOTHING`);
  await setWebhookConfig(
    db,
    box,
    { tenantId: 't1', source: 'website', url, secret: randomBytes(32).toString('hex') },
    { allowInsecureLoopback: true },
  );
}

const pct = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

/** Baseline of the same run (same HTTP client as the dispatcher, undici): n same-size POSTs straight to the receiver, 100 at a time (2 dispatchers × batch 50). */
async function bareRate(url: string, n: number): Promise<number> {
  const body = JSON.stringify({ eventId: randomUUID(), type: 'order.state_changed', occurredAt: new Date().toISOString(), order: order() });
  const t0 = performance.now();
  for (let i = 0; i < n; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, n - i) }, () =>
        request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then((r) => r.body.dump()),
      ),
    );
  }
  return n / ((performance.now() - t0) / 1000);
}

async function run(kind: string, db: Db, url: string, bare: number) {
  const box = new SecretBox(randomBytes(32));
  await setup(db, url, box);
  // 1. Throughput: a backlog drained by two dispatchers (batch 50) as fast as they go.
  const n = Number(args.events);
  for (let i = 0; i < n; i++) await enqueue(db);
  const ds = [1, 2].map(() => createWebhookDispatcher({ db, box, log: silent, batchSize: 50 }));
  const t0 = performance.now();
  let sent = 0;
  while (sent < n) sent += (await Promise.all(ds.map((d) => d.runOnce()))).reduce((a, b) => a + b, 0);
  const throughput = n / ((performance.now() - t0) / 1000);
  await db.query('DELETE FROM webhook_attempts');
  await db.query('DELETE FROM webhook_deliveries');
  await db.query('DELETE FROM webhook_events');
  // 2. Lag at a steady rate, dispatcher polling every 100 ms (drains at once when a batch is full).
  const rate = Number(args.rate);
  const seconds = Number(args.seconds);
  const d = createWebhookDispatcher({ db, box, log: silent, batchSize: 50 });
  d.start(100);
  const start = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await enqueue(db);
  }
  while (Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`))[0]!.n) > 0) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await d.stop();
  const lags = (
    await db.query<{ ms: number }>(
      `SELECT extract(epoch FROM (a.started_at - e.occurred_at)) * 1000 AS ms FROM webhook_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_events e ON e.event_id = d.event_id WHERE a.attempt_no = 1`,
    )
  ).map((r) => Number(r.ms));
  return {
    db: kind,
    'deliveries/s (backlog, 2 dispatchers)': throughput.toFixed(0),
    'bare POSTs/s': bare.toFixed(0),
    'ratio to bare': (throughput / bare).toFixed(2),
    'events/s offered': rate,
    'lag p50 ms': pct(lags, 50).toFixed(0),
    'lag p99 ms': pct(lags, 99).toFixed(0),
    samples: lags.length,
  };
}

async function main(): Promise<void> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const rows = [];
  const bare = await bareRate(url, Number(args.events));
  const pglite = await openDb({});
  rows.push(await run('PGlite (in-memory)', pglite, url, bare));
  await pglite.close();
  if (process.env.DATABASE_URL) {
    const pg = await openDb({ databaseUrl: process.env.DATABASE_URL, schema: `bench_${randomBytes(4).toString('hex')}`, dropSchemaOnClose: true });
    rows.push(await run('PostgreSQL', pg, url, bare));
    await pg.close();
  }
  console.table(rows);
  server.closeAllConnections();
  server.close();
}

await main();
