import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { buildSignedHeaders, ManualClock, randomIds, type Db } from '@app/shared';
import { startLoyaltySimulator, type RunningSimulator } from '@app/loyalty-simulator';
import { createServices, type Services } from '../../src/app.js';
import { SecretBox } from '../../src/auth/secret-box.js';
import { HttpLoyalty } from '../../src/loyalty/loyalty.http.js';
import { OperatorService } from '../../src/operator/operator.service.js';
import { RecordingOrderEvents } from '../support/recording-order-events.js';
import { openDeliveryDb } from '../../src/server.js';
import { TenantsRepo } from '../../src/tenants/tenants.repo.js';
import { MARGHERITA, ORG, TG, sampleMenu } from '../harness.js';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const MAIN = join(import.meta.dirname, 'crash-server.ts');
export const GUESTS = 30;
export const GUEST_BONUS = 50000;
/** Guest n's phone and coupon: every scenario has its own, so the loyalty ledger can be checked per scenario. */
export const phoneOf = (n: number) => `+7999100${String(n).padStart(4, '0')}`;
export const couponOf = (n: number) => `CRASH${n}`;
/** Guest n's gift certificate (its own, so its wallet can be checked per scenario). */
export const certificateOf = (n: number) => `CERT-CRASH-${n}`;
export const CERTIFICATE_BALANCE = 100000;

export interface Key {
  apiKey: string;
  apiSecret: string;
}

/** A delivery API process (the production server, started by crash-server.ts) on the crash database. */
export interface Child {
  url: string;
  proc: ChildProcess;
  /** Resolves with the signal or code when the process ends. */
  exited: Promise<string>;
  call(key: Key, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: any }>;
  kill(): Promise<void>;
}

/**
 * The fault-injection world: a fresh PostgreSQL database, the loyalty simulator over HTTP in this
 * process (its ledger outlives every delivery process), the delivery API as child processes that a recovery
 * point kills with SIGKILL, and this process's own services (ManualClock) for the sweeper's 30-minute rules.
 */
export interface CrashWorld {
  db: Db;
  /** The world's own database (PostgreSQL URL), for further processes on it (test/e2e/sweepers.pg.test.ts). */
  dbUrl: string;
  /** Seals secrets under the children's MASTER_KEY (webhook configuration in tests). */
  box: SecretBox;
  sim: RunningSimulator;
  clock: ManualClock;
  services: Services;
  partner: Key;
  pos: Key;
  start(crashAt?: string): Promise<Child>;
  /** Runs the sweeper `ms` after real now (the child processes keep real time). */
  sweepAt(ms: number): Promise<void>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

export async function makeCrashWorld(baseUrl: string): Promise<CrashWorld> {
  const dbName = `crash_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: baseUrl, max: 1 });
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  const dbUrl = url.toString();
  const db = await openDeliveryDb({ databaseUrl: dbUrl, dataDir: '' });
  const masterKey = randomBytes(32);
  const box = new SecretBox(masterKey);
  const sim = await startLoyaltySimulator({
    config: {
      apiLogins: ['crash-login'],
      organizations: [ORG],
      programs: [],
      coupons: Array.from({ length: GUESTS }, (_, n) => ({
        code: couponOf(n),
        name: `crash ${n}`,
        amountMinor: 20000,
        singleUse: true,
        posDiscountId: `pos-disc-${n}`,
      })),
      guests: Array.from({ length: GUESTS }, (_, n) => ({
        phone: phoneOf(n),
        name: `Guest ${n}`,
        bonusBalanceMinor: GUEST_BONUS,
        accrualPercent: 5,
      })),
      certificates: Array.from({ length: GUESTS }, (_, n) => ({ serial: certificateOf(n), balanceMinor: CERTIFICATE_BALANCE })),
      faults: { writeLimitPerMinute: 0 },
    },
    port: 0,
  });
  const ops = new OperatorService({ db, box });
  await ops.createTenant('t1', 'Crash chain');
  await ops.createSource('t1', 'website');
  await ops.setPoint({
    tenantId: 't1',
    pointId: '1',
    name: 'P1',
    address: 'A',
    location: { lat: 55.76, lon: 37.61 },
    phone: '+74950000000',
    schedule: null,
    deliveryTypes: ['courier', 'pickup'],
  });
  await ops.setRoute({
    tenantId: 't1',
    source: 'website',
    pointId: '1',
    organizationId: ORG,
    terminalGroupId: TG(1),
    orderTypeId: 'ot',
    operatorUserId: 'op',
    originName: 'website',
    active: true,
  });
  const pos = await ops.issuePosCredential({ tenantId: 't1', organizationId: ORG, terminalGroupId: TG(1) });
  const partner = await ops.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['1'] });
  await new TenantsRepo(db).updateSettings('t1', {
    bonusPaymentTypeCode: 'BONUS',
    certificatePaymentTypeCode: 'CERT',
    deliveryFeeProductId: 'fee',
    zonePricing: true,
  });

  const clock = new ManualClock(new Date());
  const loyalty = new HttpLoyalty({ baseUrl: sim.url, apiLogin: 'crash-login', timeoutMs: 2000 });
  const services = createServices({
    db,
    box,
    clock,
    ids: randomIds,
    requestIdTtlSeconds: 600,
    heartbeatWindowSeconds: 3600,
    masterKey,
    loyalty,
    events: new RecordingOrderEvents(),
  });
  const children: Child[] = [];

  async function start(crashAt?: string): Promise<Child> {
    const port = await freePort();
    const proc = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        DATABASE_URL: dbUrl,
        MASTER_KEY: masterKey.toString('hex'),
        DATA_DIR: join(ROOT, 'data', 'crash'),
        LOYALTY_URL: sim.url,
        LOYALTY_API_LOGIN: 'crash-login',
        LOYALTY_TIMEOUT_MS: '600',
        LOG_LEVEL: 'error',
        POS_HEARTBEAT_WINDOW_SECONDS: '3600',
        ...(crashAt ? { CRASH_AT: crashAt } : {}),
        // With REDIS_URL the processes share the Redis stores too, under this world's own key prefix.
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `test:${dbName}:` } : {}),
      },
    });
    let stderr = '';
    proc.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<string>((r) => proc.once('exit', (code, signal) => r(signal ?? String(code))));
    const base = `http://127.0.0.1:${port}`;
    const call: Child['call'] = async (key, method, path, body) => {
      const raw = body === undefined ? '' : JSON.stringify(body);
      const headers = buildSignedHeaders({
        apiKey: key.apiKey,
        secret: key.apiSecret,
        method,
        path: path.split('?')[0],
        body: raw,
        requestId: randomIds.uuid(),
        now: new Date(),
      });
      const r = await fetch(base + path, {
        method,
        body: method === 'POST' ? raw : undefined,
        headers: { ...headers, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      });
      const text = await r.text();
      return { status: r.status, json: text ? JSON.parse(text) : null };
    };
    // wait for the process to listen (a real process: readiness is polled, nothing is timed)
    for (let i = 0; ; i++) {
      const alive = await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (alive) break;
      if (proc.exitCode !== null || i > 600) throw new Error(`delivery process did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const child: Child = {
      url: base,
      proc,
      exited,
      call,
      async kill() {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
        await exited;
      },
    };
    children.push(child);
    await call(pos, 'POST', '/pos/v1/menu', sampleMenu());
    await call(pos, 'POST', '/pos/v1/heartbeat', {});
    return child;
  }

  return {
    db,
    dbUrl,
    box,
    sim,
    clock,
    services,
    partner,
    pos,
    start,
    async sweepAt(ms) {
      clock.set(new Date(Date.now() + ms));
      await services.sweeper.runOnce();
    },
    async close() {
      for (const c of children) await c.kill();
      await db.close();
      await sim.close();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A calculation and the matching order body for guest `n` (coupon of n, `bonus` kopecks, `certificate` kopecks of n's certificate), pickup, cash. */
export async function orderFor(
  child: Child,
  w: CrashWorld,
  n: number,
  ext: string,
  opts: { bonus?: number; coupon?: boolean; certificate?: number } = {},
) {
  const cart = {
    pointId: '1',
    deliveryType: 'pickup',
    items: [{ id: MARGHERITA, quantity: '2' }],
    guest: { phone: phoneOf(n) },
    ...(opts.coupon === false ? {} : { coupon: couponOf(n) }),
    ...(opts.bonus ? { bonusToSpend: { amountMinor: opts.bonus, currency: 'RUB' } } : {}),
    ...(opts.certificate ? { certificate: { serial: certificateOf(n), amountMinor: opts.certificate } } : {}),
  };
  const c = await child.call(w.partner, 'POST', '/v1/checkout/calculate', cart);
  if (c.status !== 200) throw new Error(`calculate ${c.status} ${JSON.stringify(c.json)}`);
  return {
    schemaVersion: 1,
    source: 'website',
    externalOrderId: ext,
    externalPointId: '1',
    guest: { name: 'Гость', phone: phoneOf(n) },
    address: { street: 'Тверская улица', house: '1' },
    items: c.json.items.map((l: any) => ({ externalProductId: l.id, quantity: l.quantity, price: l.unitPrice })),
    total: { amountMinor: c.json.subtotal.amountMinor, currency: 'RUB' },
    deliveryType: 'pickup',
    calculationId: c.json.calculationId,
    payment: { method: 'cash', paid: false, amountMinor: c.json.total.amountMinor },
    ...(cart.coupon ? { coupon: cart.coupon } : {}),
    ...(cart.bonusToSpend ? { bonusToSpend: cart.bonusToSpend } : {}),
    ...(cart.certificate ? { certificate: cart.certificate } : {}),
  };
}
