/**
 * Webhook benchmark: deliveries per second to a local receiver, and outbox lag (state change committed → first
 * attempt started, p50/p99) at a steady event rate. Runs on PGlite, and on PostgreSQL too when DATABASE_URL is set.
 * The dispatchers run in this process (they are what is measured, not an HTTP server); the receiver is a bare
 * Fastify server in its own process (bench/http/bare-server.ts), and the baseline "bare POSTs/s" is the same
 * number of same-size POSTs sent to that receiver by the separate-process load generator (bench/http/load.ts,
 * autocannon, 100 connections = 2 dispatchers × batch 50), in the same run. The table is guarded by the load
 * average (bench/http/guard.ts): NOT RECORDABLE when the machine was busy.
 * Run: npm run bench -- webhooks [--events 1000] [--rate 100] [--seconds 5]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { migrate, openDb, type Db } from '@app/shared';
import { SecretBox } from '@app/delivery-api';
import type { OrderView } from '@app/delivery-api';
import { createWebhookDispatcher } from '@app/delivery-api';
import { enqueueOrderEvent } from '@app/delivery-api';
import { setWebhookConfig } from '@app/delivery-api';
import { startBare } from './http/bare-server.js';
import { openTable, printTable } from './http/guard.js';
import { runLoad } from './http/load.js';
import { installExitHandlers, shutdown } from './http/procs.js';

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

const BARE_CONNECTIONS = 100;

/** Baseline of the same run: n same-size POSTs straight to the receiver from the load generator process, 100 at a time (2 dispatchers × batch 50). */
async function bareRate(url: string, n: number): Promise<number> {
  const body = JSON.stringify({ eventId: randomUUID(), type: 'order.state_changed', occurredAt: new Date().toISOString(), order: order() });
  const u = new URL(url);
  const r = await runLoad({ url: u.origin, method: 'POST', path: u.pathname, connections: BARE_CONNECTIONS, amount: n, key: null, body });
  if (r.non2xx || r.errors) throw new Error(`bare POSTs failed: ${JSON.stringify(r.statuses)}, ${r.errors} errors`);
  return r.rps;
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
  const receiver = await startBare([{ method: 'POST', path: '/hook', status: 204, headers: {}, body: '' }]);
  const url = `${receiver.url}/hook`;
  const t = openTable({
    title: 'Webhook deliveries (backlog, 2 dispatchers, batch 50) vs bare POSTs; outbox lag at a steady rate',
    facts: [
      `databases: PGlite in memory${process.env.DATABASE_URL ? ` and PostgreSQL (${new URL(process.env.DATABASE_URL).host}, a throw-away schema)` : ' (set DATABASE_URL for PostgreSQL too)'}`,
      `receiver: bare Fastify in its own process answering 204; baseline: the same number of same-size POSTs from autocannon in a child process, ${BARE_CONNECTIONS} connections`,
      `events: ${args.events} in the backlog; lag: ${args.rate} events/s for ${args.seconds} s, dispatcher polling every 100 ms`,
    ],
  });
  const rows = [];
  const bare = await bareRate(url, Number(args.events));
  const pglite = await openDb({});
  rows.push(await run('PGlite (in-memory)', pglite, url, bare));
  await pglite.close();
  if (process.env.DATABASE_URL) {
    const pg = await openDb({ databaseUrl: process.env.DATABASE_URL, schema: `bench_${randomBytes(4).toString('hex')}`, dropSchemaOnClose: true });
    try {
      rows.push(await run('PostgreSQL', pg, url, bare));
    } finally {
      await pg.close();
    }
  }
  const columns = Object.keys(rows[0]);
  printTable(
    t,
    columns,
    rows.map((r) => columns.map((c) => String(r[c as keyof typeof r]))),
  );
}

installExitHandlers();
let code = 0;
try {
  await main();
} catch (err) {
  console.error((err as Error).stack ?? err);
  code = 1;
} finally {
  await shutdown();
}
process.exit(code);
