/**
 * Benchmark: signed GET /v1/points/{id}/menu (200 and 304) against a bare Fastify route that returns the same
 * menu JSON without authentication or database, measured in the same run. Prints a table and the ratios.
 * Run: npm run bench -- read   (PGlite in memory; DATABASE_URL=postgres://… to measure on PostgreSQL)
 */
import { createOutboxOrderEvents } from '@app/delivery-api';
import { randomBytes, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildSignedHeaders, migrate, openDb, randomIds, systemClock } from '@app/shared';
import { buildApp, createServices } from '@app/delivery-api';
import { SecretBox } from '@app/delivery-api';
import { OperatorService } from '@app/delivery-api';
import { MIGRATIONS_DIR } from '@app/delivery-api';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 16;

function menu(n: number) {
  const categories = [{ id: 'c1', name: 'Пицца', sort: 1, parentId: null }];
  const items = Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    categoryId: 'c1',
    name: `Блюдо ${i}`,
    description: 'Описание блюда средней длины для реалистичного размера ответа',
    priceMinor: 30000 + i * 100,
    weightGrams: 300,
    nutrition: {
      kcalPer100g: 250,
      proteinPer100g: 10,
      fatPer100g: 9,
      carbsPer100g: 30,
      kcalPortion: 750,
      proteinPortion: 30,
      fatPortion: 27,
      carbsPortion: 90,
    },
    hidden: false,
    gift: false,
  }));
  return { categories, items };
}

async function run(url: string, headers: () => Record<string, string>): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, headers: { ...(req.headers ?? {}), ...headers() } }) }],
  });
}

async function main(): Promise<void> {
  const db = await openDb({
    databaseUrl: process.env.DATABASE_URL,
    schema: process.env.DATABASE_URL ? `bench_${Date.now()}` : undefined,
    dropSchemaOnClose: true,
  });
  await migrate(db, MIGRATIONS_DIR);
  const box = new SecretBox(randomBytes(32));
  const deps = {
    db,
    box,
    clock: systemClock,
    ids: randomIds,
    requestIdTtlSeconds: 600,
    heartbeatWindowSeconds: 90,
    masterKey: randomBytes(32),
    loyalty: null,
    logger: false as const,
    events: createOutboxOrderEvents(randomIds),
  };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  const ops = new OperatorService({ db, box });
  await ops.createTenant('b', 'Bench');
  await ops.createSource('b', 'website');
  await ops.setPoint({ tenantId: 'b', pointId: '1', schedule: null });
  const org = randomUUID();
  const tg = randomUUID();
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
  await services.posCatalog.pushMenu(posCred, menu(60));
  await services.posCatalog.pushStopList(posCred, []);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const path = '/v1/points/1/menu';
  const signed = () => ({
    ...buildSignedHeaders({ apiKey: key.apiKey, secret: key.apiSecret, method: 'GET', path, body: '', requestId: randomUUID(), now: new Date() }),
  });
  const first = await fetch(base + path, { headers: signed() });
  const body = await first.text();
  const etag = first.headers.get('etag')!;

  const bare = Fastify({ logger: false });
  bare.get(path, async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  const rows: [string, autocannon.Result][] = [];
  rows.push(['bare Fastify route (same JSON, no auth, no DB)', await run(bareUrl + path, () => ({}))]);
  rows.push(['signed GET /menu → 200', await run(base + path, signed)]);
  rows.push(['signed GET /menu + If-None-Match → 304', await run(base + path, () => ({ ...signed(), 'if-none-match': etag }))]);
  const baseline = rows[0][1].requests.average;
  console.log(`\nmenu of 60 items (${body.length} bytes), ${CONNECTIONS} connections, ${DURATION} s each, database: ${db.kind}\n`);
  console.log('| case | req/s (avg) | p50 ms | p99 ms | non-2xx/3xx | ratio to bare |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, r] of rows) {
    const bad = r.non2xx - (name.includes('304') ? (r['3xx' as keyof typeof r] as unknown as number) : 0);
    console.log(
      `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${Math.max(0, bad)} | ${(r.requests.average / baseline).toFixed(2)} |`,
    );
  }
  await bare.close();
  await app.close();
  await db.close();
}

await main();
