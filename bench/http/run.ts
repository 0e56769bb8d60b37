/**
 * Honest HTTP benchmarks of the Delivery Partner API. The server under test is the compiled
 * delivery API started as in production (bench/http/world.ts) on a dedicated PostgreSQL database; the load
 * generator is autocannon in a separate process (bench/http/load-child.ts) that signs every request with a fresh
 * X-Request-ID; the baseline is a bare Fastify server in its own process answering the same bytes
 * (bench/http/bare-server.ts), driven by the same load generator in the same run. Each table is guarded by the
 * load average (bench/http/guard.ts) and printed NOT RECORDABLE when the machine was busy.
 *
 * Tables: menu reads (signed GET 200, 304 on PostgreSQL, 304 with Redis vs bare GET); calculate (5 lines, no
 * loyalty vs bare POST); orders (5 lines, no loyalty, unique externalOrderId; idempotent replay of one order vs
 * bare POST); orders with coupon + bonus holds against the loyalty simulator in its own process.
 *
 * Run: npm run build && npm run bench -- http [menu|calculate|orders|loyalty ...]   (default: all tables)
 * Env: BENCH_SECONDS (10) per case, BENCH_WARMUP (2) seconds of unrecorded load before each case,
 * BENCH_CONNECTIONS (32), BENCH_MAX_LOAD (2), BENCH_DATABASE_URL or DATABASE_URL (PostgreSQL server whose
 * `postgres` database is used to create and drop bench_http_<pid>; default postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_REDIS_URL or REDIS_URL (default redis://127.0.0.1:6379; the Redis row is skipped when nothing listens),
 * BENCH_LOYALTY_ORDERS (orders in the loyalty case; default 150 × BENCH_SECONDS), BENCH_LOG_LEVEL (info).
 */
import { connect } from 'node:net';
import { type BareRoute, startBare } from './bare-server.js';
import { cpuMark, cpuSince, openTable, printTable } from './guard.js';
import { type LoadResult, type LoadSpec, runLoad, statusText } from './load.js';
import { installExitHandlers, shutdown } from './procs.js';
import { CART_ITEMS, COUPON, LOYALTY_LOGIN, call, makeWorld, phoneOf, type Server, type World } from './world.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LOYALTY_ORDERS = Number(process.env.BENCH_LOYALTY_ORDERS ?? 150 * SECONDS);
const TABLES = ['menu', 'calculate', 'orders', 'loyalty'] as const;
type Json = Record<string, any>;

const COLUMNS = [
  'case',
  'requests',
  's',
  'req/s',
  'p50 ms',
  'p99 ms',
  'non-2xx',
  'errors',
  'status codes',
  'ratio to bare',
  'CPU cores by process',
  'notes',
];

interface Case {
  name: string;
  spec: Omit<LoadSpec, 'connections' | 'duration'> & { duration?: number };
  /** Status codes that count as success for this case. */
  expect: number[];
  /** The row this one is compared with (its index); absent for the baseline itself. */
  bareRow?: number;
  /** A note computed after the run (database checks). */
  after?: (r: LoadResult) => Promise<string>;
}

/** Runs the cases one after another (warm-up first) and prints one guarded table; a failing case prints its reason. */
async function table(title: string, facts: string[], cases: Case[]): Promise<void> {
  const t = openTable({
    title,
    facts: [...facts, `connections: ${CONNECTIONS}`, `duration: ${SECONDS} s per case (fixed-count cases say so), warm-up ${WARMUP} s`],
  });
  const results: (LoadResult | null)[] = [];
  const rows: (string | number)[][] = [];
  for (const c of cases) {
    try {
      if (WARMUP > 0 && !c.spec.amount) await runLoad({ ...c.spec, connections: CONNECTIONS, duration: WARMUP, template: warm(c.spec.template) });
      const mark = cpuMark();
      const r = await runLoad({ connections: CONNECTIONS, duration: SECONDS, ...c.spec });
      const cpu = [cpuSince(mark), `client ${r.clientCores.toFixed(2)}`].filter(Boolean).join(' · ');
      results.push(r);
      const bare = c.bareRow === undefined ? null : results[c.bareRow];
      const unexpected = Object.keys(r.statuses).filter((s) => !c.expect.includes(Number(s)));
      const notes = [
        unexpected.length ? `UNEXPECTED statuses ${unexpected.join(', ')}` : '',
        c.spec.amount ? `fixed count ${r.requests}` : '',
        c.after ? await c.after(r) : '',
      ].filter(Boolean);
      rows.push([
        c.name,
        r.requests,
        r.seconds.toFixed(1),
        r.rps.toFixed(0),
        r.p50,
        r.p99,
        r.non2xx,
        r.errors + r.timeouts,
        statusText(r.statuses),
        bare ? (r.rps / bare.rps).toFixed(3) : c.bareRow === undefined ? 'baseline' : 'n/a',
        cpu,
        notes.join('; '),
      ]);
    } catch (err) {
      results.push(null);
      console.error(`case "${c.name}" failed: ${(err as Error).message}`);
      rows.push([c.name, '', '', '', '', '', '', '', '', '', '', `FAILED: ${(err as Error).message.split('\n')[0]}`]);
    }
  }
  printTable(t, COLUMNS, rows);
}

/** Warm-up requests must not take the measured run's unique ids. */
const warm = (t: LoadSpec['template']) => (t ? { ...t, prefix: `${t.prefix}w` } : undefined);

function jsonRoute(method: 'GET' | 'POST', path: string, status: number, body: string, contentType: string | null): BareRoute {
  return { method, path, status, body, headers: { 'content-type': contentType ?? 'application/json; charset=utf-8' } };
}

async function redisListening(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = connect({ host: u.hostname, port: Number(u.port || 6379) });
    s.setTimeout(1000);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

/** A delivery API process for one table, stopped when the table is done (its pollers must not load the next). */
async function withServer<T>(w: World, env: Record<string, string>, fn: (s: Server) => Promise<T>): Promise<T> {
  const s = await w.startDelivery(env);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

let seq = 0;
const cart = (loyalty: boolean): Json => ({
  pointId: '1',
  deliveryType: 'pickup',
  items: CART_ITEMS,
  guest: { phone: phoneOf(seq++) },
  ...(loyalty ? { coupon: COUPON, bonusToSpend: { amountMinor: 30000, currency: 'RUB' } } : {}),
});

async function calculate(s: Server, w: World, c: Json): Promise<Json> {
  const r = await call(s.url, w.partner, 'POST', '/v1/checkout/calculate', c);
  if (r.status !== 200) throw new Error(`calculate ${r.status} ${r.text}`);
  return JSON.parse(r.text);
}

/** The order for a calculation: menu prices, total = the lines, payment = what the guest pays. */
function orderFor(c: Json, calc: Json, externalOrderId: string): Json {
  const lines = calc.items as Json[];
  return {
    schemaVersion: 1,
    source: 'website',
    externalOrderId,
    externalPointId: '1',
    guest: { name: 'Иван', phone: c.guest.phone },
    address: { city: 'Москва', street: 'Тверская улица', house: '1', flat: '5' },
    deliveryType: calc.deliveryType,
    calculationId: calc.calculationId,
    items: lines.map((l) => ({ externalProductId: l.id, quantity: l.quantity, price: { amountMinor: l.unitPrice.amountMinor, currency: 'RUB' } })),
    total: { amountMinor: lines.reduce((s, l) => s + l.lineTotal.amountMinor, 0), currency: 'RUB' },
    payment: { method: 'cash', paid: false, amountMinor: calc.total.amountMinor },
    ...(c.coupon ? { coupon: c.coupon, bonusToSpend: c.bonusToSpend } : {}),
  };
}

async function menuTable(w: World, facts: string[]): Promise<void> {
  const path = '/v1/points/1/menu';
  // limits raised so that the rate-limit row counts every request and refuses none (the check's cost, not 429s)
  await withServer(w, { RATE_LIMIT_PER_KEY: '1000000000', RATE_LIMIT_PER_IP: '1000000000' }, async (s) => {
    const first = await call(s.url, w.partner, 'GET', path);
    if (first.status !== 200) throw new Error(`menu ${first.status} ${first.text}`);
    const etag = first.headers.get('etag');
    if (!etag) throw new Error('menu answer has no ETag');
    const bare = await startBare([jsonRoute('GET', path, 200, first.text, first.headers.get('content-type'))]);
    try {
      const cases: Case[] = [
        { name: 'bare Fastify GET (same menu bytes; no auth, no DB)', spec: { url: bare.url, method: 'GET', path, key: w.partner }, expect: [200] },
        { name: 'signed GET /menu → 200', spec: { url: s.url, method: 'GET', path, key: w.partner }, expect: [200], bareRow: 0 },
        {
          name: 'signed GET /menu + If-None-Match → 304 (request ids in PostgreSQL)',
          spec: { url: s.url, method: 'GET', path, key: w.partner, headers: { 'if-none-match': etag } },
          expect: [304],
          bareRow: 0,
        },
        {
          name: 'same 304, source with the rate-limits switch (per-key and per-IP counters in memory, none refused)',
          spec: { url: s.url, method: 'GET', path, key: w.limited, headers: { 'if-none-match': etag } },
          expect: [304],
          bareRow: 0,
        },
      ];
      let redis = (await redisListening(REDIS_URL)) ? `${REDIS_URL} (last row)` : `nothing listens at ${REDIS_URL}, Redis row skipped`;
      let redisServer: Server | null = null;
      if (redis.endsWith('(last row)')) {
        try {
          redisServer = await w.startDelivery({ REDIS_URL, REDIS_KEY_PREFIX: `bench:${w.dbName}:` });
          // Redis is connected lazily: wait until a signed request is answered (503 until then).
          for (let i = 0; (await call(redisServer.url, w.partner, 'GET', path)).status !== 200; i++) {
            if (i > 100) throw new Error('the Redis-configured server never answered 200');
            await new Promise((r) => setTimeout(r, 100));
          }
          cases.push({
            name: 'signed GET /menu + If-None-Match → 304 (request ids in Redis)',
            spec: { url: redisServer.url, method: 'GET', path, key: w.partner, headers: { 'if-none-match': etag } },
            expect: [304],
            bareRow: 0,
          });
        } catch (err) {
          await redisServer?.close();
          redisServer = null;
          redis = `${REDIS_URL} unusable (${(err as Error).message.split('\n')[0]}), Redis row skipped`;
          console.error(`!!! Redis case skipped: ${redis}`);
        }
      }
      // The Redis server idles through the first cases: its only background work is the 1 s pollers.
      try {
        await table(
          `Signed GET /v1/points/{id}/menu (${Buffer.byteLength(first.text)} bytes, 60 items) vs a bare Fastify GET`,
          [...facts, `Redis: ${redis}`],
          cases,
        );
      } finally {
        await redisServer?.close();
      }
    } finally {
      await bare.close();
    }
  });
}

async function calculateTable(w: World, facts: string[]): Promise<void> {
  const path = '/v1/checkout/calculate';
  await withServer(w, {}, async (s) => {
    const sample = await call(s.url, w.partner, 'POST', path, cart(false));
    if (sample.status !== 200) throw new Error(`calculate ${sample.status} ${sample.text}`);
    const bare = await startBare([jsonRoute('POST', path, 200, sample.text, sample.headers.get('content-type'))]);
    const body = JSON.stringify(cart(false));
    try {
      await table(`POST /v1/checkout/calculate, 5 lines, no loyalty (answer ${Buffer.byteLength(sample.text)} bytes) vs a bare Fastify POST`, facts, [
        {
          name: 'bare Fastify POST (same cart in, same answer bytes out; no auth, no DB)',
          spec: { url: bare.url, method: 'POST', path, key: w.partner, body },
          expect: [200],
        },
        { name: 'calculate, 5 lines, no loyalty', spec: { url: s.url, method: 'POST', path, key: w.partner, body }, expect: [200], bareRow: 0 },
      ]);
    } finally {
      await bare.close();
    }
  });
}

async function ordersTable(w: World, facts: string[]): Promise<void> {
  const path = '/v1/orders';
  await withServer(w, {}, async (s) => {
    const c = cart(false);
    const calc = await calculate(s, w, c);
    // One calculation serves every order of the run: its token binds the cart, not the externalOrderId.
    const prefix = `bench-${Date.now()}`;
    const PLACEHOLDER = '__EXTERNAL_ORDER_ID__';
    const template = JSON.stringify(orderFor(c, calc, PLACEHOLDER));
    const replayBody = template.replace(PLACEHOLDER, `${prefix}-replay`);
    const created = await call(s.url, w.partner, 'POST', path, JSON.parse(replayBody));
    if (created.status !== 201) throw new Error(`order ${created.status} ${created.text}`);
    const bare = await startBare([jsonRoute('POST', path, 201, created.text, created.headers.get('content-type'))]);
    const stored = async () => {
      const [row] = await w.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE external_order_id LIKE $1`, [`${prefix}-m-%`]);
      return `${row.n} orders stored by the measured run`;
    };
    try {
      await table(`POST /v1/orders, 5 lines, no loyalty (answer ${Buffer.byteLength(created.text)} bytes) vs a bare Fastify POST`, facts, [
        {
          name: 'bare Fastify POST (same order in, same answer bytes out, 201; no auth, no DB)',
          spec: {
            url: bare.url,
            method: 'POST',
            path,
            key: w.partner,
            template: { text: template, placeholder: PLACEHOLDER, prefix: `${prefix}-bare` },
          },
          expect: [201],
        },
        {
          name: 'POST /v1/orders, unique externalOrderId per request (orders/s)',
          spec: { url: s.url, method: 'POST', path, key: w.partner, template: { text: template, placeholder: PLACEHOLDER, prefix: `${prefix}-m` } },
          expect: [201],
          bareRow: 0,
          after: stored,
        },
        {
          name: 'idempotent replay of one order (same body, same externalOrderId)',
          spec: { url: s.url, method: 'POST', path, key: w.partner, body: replayBody },
          expect: [200],
          bareRow: 0,
        },
      ]);
    } finally {
      await bare.close();
    }
  });
}

async function loyaltyTable(w: World, facts: string[]): Promise<void> {
  const path = '/v1/orders';
  const sim = await w.startLoyalty();
  try {
    await withServer(w, { LOYALTY_URL: sim.url, LOYALTY_API_LOGIN: LOYALTY_LOGIN }, async (s) => {
      const prefix = `bench-l-${Date.now()}`;
      // Each order needs its own calculation (guest phone and holds): made before the timed phase, 16 at a time.
      const bodies: string[] = [];
      for (let i = 0; i < LOYALTY_ORDERS; i += 16) {
        const batch = Array.from({ length: Math.min(16, LOYALTY_ORDERS - i) }, (_, j) => i + j).map(async (n) => {
          const c = cart(true);
          return JSON.stringify(orderFor(c, await calculate(s, w, c), `${prefix}-${n}`));
        });
        bodies.push(...(await Promise.all(batch)));
      }
      const sample = JSON.parse(bodies[0]) as Json;
      const first = await call(s.url, w.partner, 'POST', path, { ...sample, externalOrderId: `${prefix}s-sample` });
      if (first.status !== 201) throw new Error(`loyalty order ${first.status} ${first.text}`);
      const bare = await startBare([jsonRoute('POST', path, 201, first.text, first.headers.get('content-type'))]);
      try {
        await table(`POST /v1/orders with coupon + bonus holds (loyalty simulator in its own process) vs a bare Fastify POST`, facts, [
          {
            name: 'bare Fastify POST (same order bodies in, cycled; same answer bytes out, 201)',
            spec: { url: bare.url, method: 'POST', path, key: w.partner, bodies },
            expect: [201],
          },
          {
            name: 'POST /v1/orders, 5 lines, coupon + 300 RUB bonus, one guest phone per order (orders/s)',
            // Each prepared order is sent once: a fixed count, not a duration.
            spec: { url: s.url, method: 'POST', path, key: w.partner, bodies, amount: bodies.length },
            expect: [201],
            bareRow: 0,
            after: async () => {
              const [row] = await w.db.query<{ held: number; orders: number }>(
                `SELECT (SELECT count(*)::int FROM loyalty_legs WHERE external_order_id LIKE $1 AND state = 'held') AS held,
                        (SELECT count(*)::int FROM orders WHERE external_order_id LIKE $1) AS orders`,
                [`${prefix}-%`],
              );
              return `${row.orders} orders stored, ${row.held} legs held (2 per order expected)`;
            },
          },
        ]);
      } finally {
        await bare.close();
      }
    });
  } finally {
    await sim.close();
  }
}

async function main(): Promise<number> {
  const wanted = process.argv.slice(2).length ? process.argv.slice(2) : [...TABLES];
  const bad = wanted.filter((x) => !(TABLES as readonly string[]).includes(x));
  if (bad.length) {
    console.error(`unknown table(s) ${bad.join(', ')}; choose from ${TABLES.join(', ')}`);
    return 2;
  }
  const w = await makeWorld(PG_URL);
  const [{ server_version: version }] = await w.db.query<{ server_version: string }>('SHOW server_version');
  const facts = [
    `database: PostgreSQL ${version} (${new URL(PG_URL).host}, database ${w.dbName}), request ids in PostgreSQL unless the row says Redis`,
    'server: node packages/delivery-api/dist/main.js (compiled, env config, LOG_LEVEL ' +
      (process.env.BENCH_LOG_LEVEL ?? 'info') +
      ', logs discarded); load generator: autocannon in a child process, every request signed with a fresh X-Request-ID (the bare cases too, so the client does the same work); baseline: bare Fastify in its own process',
  ];
  const run = { menu: menuTable, calculate: calculateTable, orders: ordersTable, loyalty: loyaltyTable };
  let failed = 0;
  for (const name of wanted as (typeof TABLES)[number][]) {
    try {
      await run[name](w, facts);
    } catch (err) {
      failed++;
      console.error(`\n!!! table "${name}" failed: ${(err as Error).stack ?? err}\n`);
    }
  }
  return failed ? 1 : 0;
}

installExitHandlers();
let code = 1;
try {
  code = await main();
} catch (err) {
  console.error((err as Error).stack ?? err);
} finally {
  await shutdown();
}
process.exit(code);
