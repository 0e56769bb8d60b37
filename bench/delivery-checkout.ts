/**
 * Benchmark: signed POST /v1/checkout/calculate and POST /v1/orders (checkout orders) for a 5-line cart, without
 * loyalty and with coupon + bonus against the real loyalty simulator over HTTP, next to a bare Fastify route that
 * parses the same cart and returns a same-size JSON, all measured in one run. Prints a markdown table with
 * req/s, p50/p99 latency (ms), failures and the ratio to the bare route. Spec: POST /v1/checkout/calculate,
 * POST /v1/orders. Method and numbers: docs/bench-checkout.md.
 * Run: npm run bench -- checkout   (PGlite in memory; DATABASE_URL=postgres://… to measure on PostgreSQL)
 * Env: BENCH_SECONDS (default 10) per calculate case; BENCH_ORDERS overrides the order count of the order cases.
 */
import { createOutboxOrderEvents } from '@app/delivery-api';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildSignedHeaders, migrate, openDb, randomIds, systemClock, type Db, type Queryable } from '@app/shared';
import { startLoyaltySimulator } from '@app/loyalty-simulator';
import { buildApp, createServices, type AppDeps } from '@app/delivery-api';
import { SecretBox } from '@app/delivery-api';
import { HttpLoyalty } from '@app/delivery-api';
import { LOYALTY_LOGIN, makeLoyaltyConfig } from '@app/delivery-api/testing';
import { OperatorService } from '@app/delivery-api';
import { MIGRATIONS_DIR } from '@app/delivery-api';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 16;
/** Distinct guest phones, used round-robin: far below the spec's 30 loyalty requests per phone per minute. */
const GUESTS = 2000;
const phoneOf = (i: number) => `+7999${String(i % GUESTS).padStart(7, '0')}`;
const COUPON = 'WELCOME200';
const BONUS_MINOR = 30000;
type Key = { apiKey: string; apiSecret: string };
type Json = Record<string, unknown>;

const menuItems = Array.from({ length: 60 }, (_, i) => ({
  id: randomUUID(),
  categoryId: 'c1',
  name: `Блюдо ${i}`,
  description: 'Описание блюда средней длины для реалистичного размера ответа',
  priceMinor: 30000 + i * 100,
  weightGrams: 300,
  hidden: false,
  gift: false,
}));
/** 5 lines, 8 portions, about 2 450 RUB: above the 1 500 RUB threshold of the 10 % program, so it applies too. */
const CART_ITEMS = [1, 2, 1, 1, 3].map((q, i) => ({ id: menuItems[i * 7].id, quantity: String(q) }));

let phoneSeq = 0;
/** A checkout request; with loyalty it carries a coupon and bonus, always a guest phone (the token binds it). */
function cart(loyalty: boolean): Json {
  const base = { pointId: '1', deliveryType: 'pickup', items: CART_ITEMS, guest: { phone: phoneOf(phoneSeq++) } };
  return loyalty ? { ...base, coupon: COUPON, bonusToSpend: { amountMinor: BONUS_MINOR, currency: 'RUB' } } : base;
}

/** The order for a calculation, as tests/order-factory builds it: menu prices, total = what the guest pays. */
function orderFor(c: Json, calc: Json, externalOrderId: string): Json {
  const lines = calc.items as { id: string; quantity: string; unitPrice: { amountMinor: number }; lineTotal: { amountMinor: number } }[];
  return {
    schemaVersion: 1,
    source: 'website',
    externalOrderId,
    externalPointId: '1',
    guest: { name: 'Иван', phone: (c.guest as { phone: string }).phone },
    address: { city: 'Москва', street: 'Тверская улица', house: '1', flat: '5' },
    deliveryType: calc.deliveryType,
    calculationId: calc.calculationId,
    items: lines.map((l) => ({ externalProductId: l.id, quantity: l.quantity, price: { amountMinor: l.unitPrice.amountMinor, currency: 'RUB' } })),
    total: { amountMinor: lines.reduce((s, l) => s + l.lineTotal.amountMinor, 0), currency: 'RUB' },
    payment: { method: 'cash', paid: false, amountMinor: (calc.total as { amountMinor: number }).amountMinor },
    ...(c.coupon ? { coupon: c.coupon, bonusToSpend: c.bonusToSpend } : {}),
  };
}

const signed = (key: Key, path: string, body: string) => ({
  'content-type': 'application/json',
  ...buildSignedHeaders({ apiKey: key.apiKey, secret: key.apiSecret, method: 'POST', path, body, requestId: randomUUID(), now: new Date() }),
});

interface Row {
  name: string;
  r: autocannon.Result;
  load: number;
  sql: number;
  note?: string;
}

/** Counts SQL round trips (a transaction adds BEGIN and COMMIT), to show where a request's time goes. */
function counting(db: Db): Db & { statements: number } {
  const c = { statements: 0 };
  const wrap = (q: Queryable): Queryable => ({ query: (t, p) => (c.statements++, q.query(t, p)), exec: (sql) => (c.statements++, q.exec(sql)) });
  return Object.assign(c, {
    kind: db.kind,
    close: () => db.close(),
    query: wrap(db).query,
    exec: wrap(db).exec,
    ping: () => db.ping(),
    tx: <T>(fn: (q: Queryable) => Promise<T>) => ((c.statements += 2), db.tx((q) => fn(wrap(q)))),
  });
}

/** One autocannon run of signed POSTs; `next` gives each request's body. A fixed count when `amount` is set. */
async function measure(
  base: string,
  path: string,
  key: Key | null,
  next: () => string,
  o: { amount?: number; onResponse?: (status: number, body: string) => void } = {},
) {
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    ...(o.amount ? { amount: o.amount } : { duration: DURATION }),
    requests: [
      {
        method: 'POST',
        path,
        setupRequest: (req) => {
          const body = next();
          return { ...req, method: 'POST', path, body, headers: key ? signed(key, path, body) : { 'content-type': 'application/json' } };
        },
        ...(o.onResponse ? { onResponse: o.onResponse } : {}),
      },
    ],
  });
}

async function main(): Promise<void> {
  const onPg = Boolean(process.env.DATABASE_URL);
  const db = counting(
    await openDb({ databaseUrl: process.env.DATABASE_URL, schema: onPg ? `bench_${Date.now()}` : undefined, dropSchemaOnClose: true }),
  );
  await migrate(db, MIGRATIONS_DIR);
  const org = randomUUID();
  const tg = randomUUID();
  const guests = Array.from({ length: GUESTS }, (_, i) => ({ phone: phoneOf(i), bonusBalanceMinor: 100_000_00, accrualPercent: 5 }));
  const sim = await startLoyaltySimulator({
    config: makeLoyaltyConfig({
      organizations: [org],
      programs: makeLoyaltyConfig().programs.filter((p) => p.id === 'p10'),
      guests,
      faults: { writeLimitPerMinute: 0 },
    }),
  });
  const box = new SecretBox(randomBytes(32));
  const common = {
    events: createOutboxOrderEvents(randomIds),
    db,
    box,
    clock: systemClock,
    ids: randomIds,
    requestIdTtlSeconds: 600,
    heartbeatWindowSeconds: 90,
    masterKey: randomBytes(32),
    logger: false as const,
  };
  const start = async (deps: AppDeps) => {
    const services = createServices(deps);
    const app = await buildApp(deps, services);
    return { app, services, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
  };
  const plain = await start({ ...common, loyalty: null });
  const loyal = await start({ ...common, loyalty: new HttpLoyalty({ baseUrl: sim.url, apiLogin: LOYALTY_LOGIN }) });

  const ops = new OperatorService({ db, box });
  await ops.createTenant('b', 'Bench');
  await ops.createSource('b', 'website');
  await ops.setPoint({ tenantId: 'b', pointId: '1', schedule: null });
  await ops.setRoute({
    tenantId: 'b',
    source: 'website',
    pointId: '1',
    organizationId: org,
    terminalGroupId: tg,
    orderTypeId: 'o',
    operatorUserId: 'u',
    originName: 'w',
  });
  await ops.updateSettings('b', { bonusPaymentTypeCode: 'BONUS' });
  const key = await ops.issuePartnerCredential({ tenantId: 'b', source: 'website', pointIds: ['1'] });
  const posCred = {
    id: 'x',
    kind: 'pos' as const,
    apiKey: 'x',
    secret: 'x',
    tenantId: 'b',
    source: null,
    pointIds: [],
    organizationId: org,
    terminalGroupId: tg,
  };
  await plain.services.posCatalog.pushMenu(posCred, { categories: [{ id: 'c1', name: 'Пицца', sort: 1, parentId: null }], items: menuItems });
  await plain.services.posCatalog.pushStopList(posCred, []);
  await plain.services.posCatalog.pushStreets(posCred, [{ name: 'Тверская улица', city: 'Москва' }]);
  await plain.services.posCatalog.heartbeat(posCred);

  const CALC = '/v1/checkout/calculate';
  const ORDERS = '/v1/orders';
  const calcOnce = async (base: string, c: Json): Promise<Json> => {
    const body = JSON.stringify(c);
    const res = await fetch(base + CALC, { method: 'POST', headers: signed(key, CALC, body), body });
    if (res.status !== 200) throw new Error(`calculate ${res.status} ${await res.text()}`);
    return (await res.json()) as Json;
  };
  const sample = await calcOnce(loyal.url, cart(true));
  const sampleBody = JSON.stringify(sample);
  if (
    (sample.coupon as { status: string }).status !== 'applied' ||
    (sample.bonus as { spend: { amountMinor: number } }).spend.amountMinor !== BONUS_MINOR
  ) {
    throw new Error(`loyalty not applied in the sample calculation: ${sampleBody}`);
  }

  const bare = Fastify({ logger: false });
  bare.post(CALC, async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(sampleBody));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  /** Calculations made before the timed phase (8 at a time), each turned into a ready order body. */
  const orderPool = async (base: string, loyalty: boolean, n: number, prefix: string): Promise<string[]> => {
    const out: string[] = [];
    for (let i = 0; i < n; i += 8) {
      const batch = Array.from({ length: Math.min(8, n - i) }, () => cart(loyalty)).map(async (c, j) =>
        JSON.stringify(orderFor(c, await calcOnce(base, c), `${prefix}-${i + j}`)),
      );
      out.push(...(await Promise.all(batch)));
    }
    return out;
  };
  const rows: Row[] = [];
  const run = async (name: string, f: () => Promise<autocannon.Result>, note?: string) => {
    const load = loadavg()[0];
    const before = db.statements;
    const r = await f();
    rows.push({ name, r, load, sql: (db.statements - before) / r.requests.total, note });
  };
  let loyaltyOff = 0;
  await run('bare Fastify POST (same cart in, same-size JSON out; no auth, no DB)', () =>
    measure(bareUrl, CALC, null, () => JSON.stringify(cart(false))),
  );
  await run('calculate, 5 lines, no loyalty', () => measure(plain.url, CALC, key, () => JSON.stringify(cart(false))));
  await run('calculate, 5 lines, coupon + bonus (simulator over HTTP)', () =>
    measure(loyal.url, CALC, key, () => JSON.stringify(cart(true)), {
      onResponse: (s, b) => void (s === 200 && !b.includes('"status":"applied"') && loyaltyOff++),
    }),
  );
  rows[2].note = `${loyaltyOff} answers without the coupon applied`;

  // Orders run a fixed count sized so the run lasts roughly BENCH_SECONDS: an order does a calculation and more (about 3× the work, measured).
  const size = (calcRow: Row) =>
    Number(process.env.BENCH_ORDERS ?? Math.max(50, Math.min(3000, Math.round(((calcRow.r.requests.total / calcRow.r.duration) * DURATION) / 3))));
  const poolN = await orderPool(plain.url, false, size(rows[1]), `bench-n-${Date.now()}`);
  let n = 0;
  await run('POST /v1/orders, 5 lines, no loyalty', () => measure(plain.url, ORDERS, key, () => poolN[n++], { amount: poolN.length }));
  const prefixL = `bench-l-${Date.now()}`;
  const poolL = await orderPool(loyal.url, true, size(rows[2]), prefixL);
  let l = 0;
  await run('POST /v1/orders, 5 lines, coupon + bonus holds (simulator over HTTP)', () =>
    measure(loyal.url, ORDERS, key, () => poolL[l++], { amount: poolL.length }),
  );
  const [legs] = await db.query<{ held: number; orders: number }>(
    `SELECT (SELECT count(*)::int FROM loyalty_legs WHERE external_order_id LIKE $1 AND state = 'held') AS held,
            (SELECT count(*)::int FROM orders WHERE external_order_id LIKE $1) AS orders`,
    [`${prefixL}-%`],
  );
  rows[4].note = `${legs.orders} orders stored, ${legs.held} legs held (2 per order expected)`;

  print(rows, db.kind, sampleBody.length);
  await bare.close();
  await plain.app.close();
  await loyal.app.close();
  await sim.close();
  await db.close();
}

/** The markdown table: rates are completed responses over the run's wall time; failures are non-2xx + socket errors. */
function print(rows: Row[], dbKind: string, sampleBytes: number): void {
  const rate = (r: autocannon.Result) => r.requests.total / r.duration;
  const baseline = rate(rows[0].r);
  console.log(
    `\n${new Date().toISOString()}, database: ${dbKind}, ${CONNECTIONS} connections, calculate cases ${DURATION} s each, ` +
      `order cases a fixed count; calculate answer ${sampleBytes} bytes; node ${process.version}, ${cpus().length} CPUs, load 1/5/15 min now ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' / ')}\n`,
  );
  console.log(
    '| case | requests | s | req/s | p50 ms | p99 ms | non-2xx | errors | status codes | SQL / request | ratio to bare | load (1 min) at start | notes |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const { name, r, load, sql, note } of rows) {
    const codes = Object.entries(r.statusCodeStats ?? {})
      .map(([c, s]) => `${c}×${s.count ?? 0}`)
      .join(', ');
    console.log(
      `| ${name} | ${r.requests.total} | ${r.duration.toFixed(1)} | ${rate(r).toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} | ${r.errors} | ${codes} | ${sql.toFixed(1)} | ${(rate(r) / baseline).toFixed(3)} | ${load.toFixed(2)} | ${note ?? ''} |`,
    );
  }
}

await main();
