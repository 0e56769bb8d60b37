/**
 * The system under test of the HTTP benchmarks, set up as in production: a dedicated PostgreSQL database
 * (`bench_http_<pid>`, dropped at the end), seeded with the operator service (tenant, source, point, route,
 * credentials, settings) before any server starts, the compiled delivery API (`node
 * packages/delivery-api/dist/main.js`, configured by environment only) in its own process, the menu pushed by the
 * POS over HTTP, and the loyalty simulator (compiled, `packages/loyalty-simulator/dist/main.js`) in its own
 * process when a case needs it. Needs `npm run build` first. Not a benchmark itself; used by bench/http/run.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildSignedHeaders, type Db } from '@app/shared';
import { OperatorService, SecretBox, openDeliveryDb } from '@app/delivery-api';
import type { Key } from './load.js';
import { onCleanup, spawnTracked, stop } from './procs.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DELIVERY_MAIN = join(ROOT, 'packages', 'delivery-api', 'dist', 'main.js');
const LOYALTY_MAIN = join(ROOT, 'packages', 'loyalty-simulator', 'dist', 'main.js');
const EXIT_WITH_PARENT = join(import.meta.dirname, 'exit-with-parent.mjs');
export const ORG = '6f1c1c9e-3c55-4c1e-9d1a-0b6a8e0c0001';
export const TG = '6f1c1c9e-3c55-4c1e-9d1a-0b6a8e0c0002';
export const LOYALTY_LOGIN = 'bench-login';
export const COUPON = 'WELCOME200';
/** Distinct guest phones, used round-robin: far below the spec's 30 loyalty requests per phone per minute. */
export const GUESTS = 4000;
export const phoneOf = (i: number) => `+7999${String(i % GUESTS).padStart(7, '0')}`;

export const menuItems = Array.from({ length: 60 }, (_, i) => ({
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
/** 5 lines, 8 portions, about 2 450 RUB. */
export const CART_ITEMS = [1, 2, 1, 1, 3].map((q, i) => ({ id: menuItems[i * 7].id, quantity: String(q) }));

export interface Server {
  url: string;
  close(): Promise<void>;
}

export interface World {
  dbName: string;
  db: Db;
  partner: Key;
  /** A key of source `planned` with the `rate-limits` switch on (same point and route as `partner`). */
  limited: Key;
  pos: Key;
  /** Starts one delivery API process from dist with `env` added to the production-like environment. */
  startDelivery(env?: Record<string, string>): Promise<Server>;
  /** Starts the loyalty simulator process (guests GUESTS, coupon COUPON, no write limit). */
  startLoyalty(): Promise<Server>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Node flags for a compiled child: the workspace packages must resolve to dist, so no `--conditions=source`. */
function distNodeOptions(): string {
  return (process.env.NODE_OPTIONS ?? '')
    .split(/\s+/)
    .filter((o) => o && o !== '--conditions=source')
    .join(' ');
}

/** A signed JSON call, as a partner or the POS would make it. */
export async function call(base: string, key: Key, method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const raw = body === undefined ? '' : JSON.stringify(body);
  const signed = buildSignedHeaders({ apiKey: key.apiKey, secret: key.apiSecret, method, path, body: raw, requestId: randomUUID(), now: new Date() });
  const r = await fetch(base + path, {
    method,
    body: method === 'POST' ? raw : undefined,
    headers: { ...signed, ...headers, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
  });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

async function waitHealthy(base: string, what: string, exited: () => string | null, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    const gone = exited();
    if (gone !== null) throw new Error(`${what} exited (${gone}) before answering: ${stderr().slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`${what} did not answer /health in 60 s: ${stderr().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Extra node flags for the delivery API process only, from BENCH_SERVER_NODE_ARGS (whitespace-separated), e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof-calc` to profile the server under the bench's load (summarise the
 * .cpuprofile with bench/http/profile-summary.ts). The profile is written when the server exits after SIGTERM.
 */
const SERVER_NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

/** Starts a compiled service and waits for /health (or for the loyalty simulator's port). */
async function startProcess(
  what: string,
  main: string,
  env: Record<string, string>,
  port: number,
  healthPath: string | null,
  nodeArgs: string[] = [],
): Promise<Server> {
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  const proc = spawnTracked(process.execPath, [...nodeArgs, '--import', EXIT_WITH_PARENT, main], {
    cwd: ROOT,
    // Logs go nowhere, as to a log shipper that keeps up; stderr is kept to explain a failed start.
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', NODE_OPTIONS: distNodeOptions(), ...env },
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-8000)));
  const base = `http://127.0.0.1:${port}`;
  const state = () => (proc.exitCode !== null || proc.signalCode !== null ? String(proc.signalCode ?? proc.exitCode) : null);
  if (healthPath) await waitHealthy(base, what, state, () => stderr);
  else {
    const deadline = Date.now() + 60_000;
    while (
      !(await fetch(base).then(
        () => true,
        () => false,
      ))
    ) {
      if (state() !== null) throw new Error(`${what} exited (${state()}): ${stderr.slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`${what} did not listen in 60 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // A profiled process needs time to write its profile on exit before the SIGKILL fallback.
  return { url: base, close: () => stop(proc, nodeArgs.length ? 30_000 : undefined) };
}

export async function makeWorld(baseUrl: string): Promise<World> {
  const dbName = `bench_http_${process.pid}`;
  const admin = new pg.Pool({ connectionString: baseUrl, max: 1 });
  // A run killed with SIGKILL cannot drop its database: drop those whose process is gone.
  const stale = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname ~ '^bench_http_[0-9]+$'`);
  for (const { datname } of stale.rows) {
    if (!alive(Number(datname.slice('bench_http_'.length)))) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  }
  await admin.query(`CREATE DATABASE ${dbName}`);
  onCleanup(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    console.log(`dropped database ${dbName}`);
  });
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  const dbUrl = url.toString();
  const db = await openDeliveryDb({ databaseUrl: dbUrl, dataDir: '' });
  onCleanup(() => db.close());
  const masterKey = randomBytes(32);
  const ops = new OperatorService({ db, box: new SecretBox(masterKey) });
  await ops.createTenant('b', 'Bench');
  await ops.createSource('b', 'website');
  await ops.setPoint({ tenantId: 'b', pointId: '1', schedule: null });
  await ops.setRoute({
    tenantId: 'b',
    source: 'website',
    pointId: '1',
    organizationId: ORG,
    terminalGroupId: TG,
    orderTypeId: 'o',
    operatorUserId: 'u',
    originName: 'w',
  });
  await ops.updateSettings('b', { bonusPaymentTypeCode: 'BONUS' });
  const partner = await ops.issuePartnerCredential({ tenantId: 'b', source: 'website', pointIds: ['1'] });
  await ops.createSource('b', 'planned');
  await ops.setRoute({
    tenantId: 'b',
    source: 'planned',
    pointId: '1',
    organizationId: ORG,
    terminalGroupId: TG,
    orderTypeId: 'o',
    operatorUserId: 'u',
    originName: 'p',
  });
  await ops.sourceFeatures('b', 'planned', 'rate-limits');
  const limited = await ops.issuePartnerCredential({ tenantId: 'b', source: 'planned', pointIds: ['1'] });
  const pos = await ops.issuePosCredential({ tenantId: 'b', organizationId: ORG, terminalGroupId: TG });
  const tmp = mkdtempSync(join(tmpdir(), 'bench-http-'));
  onCleanup(async () => rmSync(tmp, { recursive: true, force: true }));
  let catalogPushed = false;

  return {
    dbName,
    db,
    partner,
    limited,
    pos,
    async startDelivery(env = {}) {
      const port = await freePort();
      const server = await startProcess(
        'delivery API',
        DELIVERY_MAIN,
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: dbUrl,
          MASTER_KEY: masterKey.toString('hex'),
          DATA_DIR: tmp,
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
          // The POS of the bench pushes once; a terminal must stay "alive" through the whole run.
          POS_HEARTBEAT_WINDOW_SECONDS: '3600',
          ...env,
        },
        port,
        '/health',
        SERVER_NODE_ARGS,
      );
      if (!catalogPushed) {
        const push = async (path: string, body: unknown) => {
          const r = await call(server.url, pos, 'POST', path, body);
          if (r.status !== 200) throw new Error(`POS ${path}: ${r.status} ${r.text}`);
        };
        await push('/pos/v1/menu', { categories: [{ id: 'c1', name: 'Пицца', sort: 1, parentId: null }], items: menuItems });
        await push('/pos/v1/stop-list', { items: [] });
        await push('/pos/v1/streets', { streets: [{ name: 'Тверская улица', city: 'Москва' }] });
        await push('/pos/v1/heartbeat', {});
        catalogPushed = true;
      }
      return server;
    },
    async startLoyalty() {
      const port = await freePort();
      const config = join(tmp, 'loyalty.json');
      writeFileSync(
        config,
        JSON.stringify({
          apiLogins: [LOYALTY_LOGIN],
          organizations: [ORG],
          programs: [{ id: 'p10', name: '10% from 1500 RUB', type: 'percent', percent: 10, minSubtotalMinor: 150000, posDiscountId: 'pos-disc-10' }],
          coupons: [{ code: COUPON, amountMinor: 20000, posDiscountId: 'pos-disc-w200' }],
          guests: Array.from({ length: GUESTS }, (_, i) => ({ phone: phoneOf(i), bonusBalanceMinor: 100_000_00, accrualPercent: 5 })),
          certificates: [],
          faults: { writeLimitPerMinute: 0 },
        }),
      );
      return startProcess(
        'loyalty simulator',
        LOYALTY_MAIN,
        { LOYALTY_CONFIG: config, LOYALTY_PORT: String(port), LOYALTY_HOST: '127.0.0.1' },
        port,
        null,
      );
    },
  };
}
