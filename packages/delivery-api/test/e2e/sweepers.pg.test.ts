/**
 * Two hold sweepers in two processes on one PostgreSQL never settle a leg twice.
 *
 * Orders in every state the sweeper acts on are created through a delivery API process (test/crash/crash-world.ts)
 * and then put into the state a crash or a POS report would leave (held legs of verified, cancelled and rejected
 * orders; queued and in-creation orders past 30 minutes; `holding` legs to read back; `failed` legs whose hold
 * took effect unseen; accruals due now and after back-off). Two sweeper processes (sweeper-child.ts, ManualClock)
 * are then driven concurrently through the 2-, 4-, 31- and 62-minute marks, several rounds each. Checked: every
 * hold changed state at the loyalty simulator once and only under one idempotency key, no settle call was
 * refused, each accrual was made once, the wallets balance, every leg ended as its order demands, and the webhook
 * outbox holds exactly one event per decision.
 * PostgreSQL only: vitest.config.ts collects `*.pg.test.ts` only when DATABASE_URL is PostgreSQL.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepReport } from '../../src/orders/hold-sweeper.js';
import { setWebhookConfig } from '../../src/webhooks/webhook-config.js';
import { GUEST_BONUS, makeCrashWorld, orderFor, phoneOf, type CrashWorld } from '../crash/crash-world.js';
import { WEBHOOK_SECRET } from '../webhooks/webhook-world.js';

const CHILD = join(import.meta.dirname, 'sweeper-child.ts');
const MIN = 60_000;
const BONUS = 1000;

type Row = Record<string, any>;

/** A sweeper process: `sweep(at)` sets its clock to `at` and runs one sweep, resolving with its report. */
interface Sweeper {
  proc: ChildProcess;
  sweep(at: Date): Promise<SweepReport>;
  close(): Promise<void>;
}

/** Starts sweeper-child.ts on the world's database and loyalty simulator; resolves once it has built its services. */
async function startSweeper(w: CrashWorld): Promise<Sweeper> {
  // An explicit environment replaces the inherited NODE_OPTIONS, so the source condition is passed explicitly.
  const proc = fork(CHILD, [], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      PATH: process.env.PATH,
      NODE_OPTIONS: '--conditions=source',
      DATABASE_URL: w.dbUrl,
      MASTER_KEY: randomBytes(32).toString('hex'),
      LOYALTY_URL: w.sim.url,
      LOYALTY_API_LOGIN: 'crash-login',
    },
  });
  const waiting = new Map<number, { resolve(r: SweepReport): void; reject(e: Error): void }>();
  let seq = 0;
  const ready = new Promise<void>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`sweeper child exited with ${code} before it was ready`)));
    proc.on('message', (m: { ready?: boolean; id?: number; report?: SweepReport; error?: string }) => {
      if (m.ready) return resolve();
      const p = waiting.get(m.id!);
      waiting.delete(m.id!);
      if (m.error) p?.reject(new Error(`sweeper child: ${m.error}`));
      else p?.resolve(m.report!);
    });
  });
  await ready;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  return {
    proc,
    sweep(at) {
      const id = ++seq;
      return new Promise<SweepReport>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        proc.send({ id, at: at.toISOString() });
      });
    },
    async close() {
      if (proc.connected) proc.disconnect();
      await exited;
    },
  };
}

/**
 * The scenarios, by guest number (each guest has its own single-use coupon and bonus wallet in the simulator).
 * `legs`: the order holds a coupon and BONUS kopecks of bonus, or bonus only.
 */
const GROUPS = {
  /** created_verified, legs held → confirmed at the 2-minute mark */
  verified: { guests: [0, 1, 2, 3, 4, 5, 6, 7], coupon: true },
  /** cancelled / rejected_final, legs held → released at the 2-minute mark */
  cancelled: { guests: [8, 9, 10], coupon: true },
  rejected: { guests: [11, 12, 13], coupon: true },
  /** queued past 30 minutes → cancelled by hold_timeout, legs released, at the 31-minute mark */
  queued: { guests: [14, 15, 16, 17, 18, 19], coupon: true },
  /** claimed / prepared past 30 minutes → cancellation requested, legs stay held */
  claimed: { guests: [20, 21], coupon: false },
  prepared: { guests: [22, 23], coupon: false },
  /** created_verified, legs `holding` (the answer was lost) → read back at 2 minutes, confirmed at 31 */
  holding: { guests: [24, 25, 26, 27], coupon: true },
  /** cancelled, legs `failed` although held in loyalty (a timeout after the service committed) → released at 31 */
  unknown: { guests: [28, 29], coupon: false },
} as const;
type Group = keyof typeof GROUPS;
/** Delivered orders with a pending accrual (no legs), by when they are due: the 4-minute mark (after a failure at 2), 31, 62. */
const ACCRUALS = {
  now: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  backedOff20: [10, 11, 12, 13, 14, 15],
  backedOff61: [16, 17, 18, 19, 20, 21],
} as const;
const PAID = (n: number) => 100_000 + n * 100;

let w: CrashWorld;
let sweepers: Sweeper[] = [];
let t0: Date;
const ids = new Map<string, string>(); // externalOrderId → order id
/** Every settle and accrual call the simulator served, with whether it changed anything. */
const calls: { op: 'chargeoff' | 'cancel' | 'accrue'; target: string; key: string; effective: boolean; error?: string }[] = [];
const reports: SweepReport[] = [];

beforeAll(async () => {
  w = await makeCrashWorld(process.env.DATABASE_URL!);
  const [api, ...children] = await Promise.all([w.start(), startSweeper(w), startSweeper(w)]);
  sweepers = children;
  // Orders through the real API (holds made at the simulator), a few at a time.
  const todo: { ext: string; n: number; coupon: boolean; bonus?: number }[] = [];
  for (const [g, spec] of Object.entries(GROUPS)) for (const n of spec.guests) todo.push({ ext: `${g}-${n}`, n, coupon: spec.coupon, bonus: BONUS });
  for (const [g, guests] of Object.entries(ACCRUALS)) for (const n of guests) todo.push({ ext: `accrue-${g}-${n}`, n, coupon: false });
  for (let i = 0; i < todo.length; i += 8) {
    await Promise.all(
      todo.slice(i, i + 8).map(async (o) => {
        // On a loaded machine a calculation may miss the loyalty service (600 ms timeout) and price the cart
        // without coupon and bonus; the order then answers price_changed, as for any partner: calculate again.
        for (let attempt = 0; ; attempt++) {
          const r = await api.call(w.partner, 'POST', '/v1/orders', await orderFor(api, w, o.n, o.ext, { coupon: o.coupon, bonus: o.bonus }));
          if (r.status === 201) {
            ids.set(o.ext, r.json.id);
            return;
          }
          if (r.status !== 409 || r.json?.error !== 'price_changed' || attempt === 3)
            throw new Error(`order ${o.ext}: ${r.status} ${JSON.stringify(r.json)}`);
        }
      }),
    );
  }
  await api.kill(); // its own sweeper (real time) must not take part
  t0 = new Date();

  // The states a crash or a POS report leaves behind (the sweeper sees only the database).
  const set = (group: Group, sql: string) => w.db.query(sql, [GROUPS[group].guests.map((n) => ids.get(`${group}-${n}`))]);
  await set('verified', `UPDATE orders SET state = 'created_verified' WHERE id = ANY($1::uuid[])`);
  await set('cancelled', `UPDATE orders SET state = 'cancelled' WHERE id = ANY($1::uuid[])`);
  await set('rejected', `UPDATE orders SET state = 'rejected_final' WHERE id = ANY($1::uuid[])`);
  await set('claimed', `UPDATE orders SET state = 'claimed' WHERE id = ANY($1::uuid[])`);
  await set('prepared', `UPDATE orders SET state = 'prepared' WHERE id = ANY($1::uuid[])`);
  await set('holding', `UPDATE orders SET state = 'created_verified' WHERE id = ANY($1::uuid[])`);
  await set('holding', `UPDATE loyalty_legs SET state = 'holding', hold_id = NULL WHERE order_id = ANY($1::uuid[])`);
  await set('unknown', `UPDATE orders SET state = 'cancelled' WHERE id = ANY($1::uuid[])`);
  await set('unknown', `UPDATE loyalty_legs SET state = 'failed', last_error = 'unavailable: timeout' WHERE order_id = ANY($1::uuid[])`);
  const acc = (g: keyof typeof ACCRUALS) => ACCRUALS[g].map((n) => ids.get(`accrue-${g}-${n}`));
  for (const g of Object.keys(ACCRUALS) as (keyof typeof ACCRUALS)[])
    for (const n of ACCRUALS[g])
      await w.db.query(`UPDATE orders SET state = 'created_verified', accrual_state = 'pending', paid_minor = $2 WHERE id = $1`, [
        ids.get(`accrue-${g}-${n}`),
        PAID(n),
      ]);
  await w.db.query(`UPDATE orders SET accrual_attempts = 2, accrual_next_at = $2 WHERE id = ANY($1::uuid[])`, [
    acc('backedOff20'),
    new Date(t0.getTime() + 20 * MIN),
  ]);
  await w.db.query(`UPDATE orders SET accrual_attempts = 3, accrual_next_at = $2 WHERE id = ANY($1::uuid[])`, [
    acc('backedOff61'),
    new Date(t0.getTime() + 61 * MIN),
  ]);
  // From here on every event lands in the outbox (the creation's own events were not subscribed).
  await setWebhookConfig(
    w.db,
    w.box,
    { tenantId: 't1', source: 'website', url: 'http://127.0.0.1:9/hooks', secret: WEBHOOK_SECRET },
    { allowInsecureLoopback: true },
  );

  // The call log: the simulator is idempotent by key, so what matters is which call changed a hold or a wallet.
  const holds = w.sim.engine.holds;
  for (const op of ['chargeoff', 'cancel'] as const) {
    const orig = holds[op].bind(holds);
    holds[op] = (r) => {
      const before = holds.list().find((h) => h.id === r.holdId)?.status;
      try {
        const h = orig(r);
        calls.push({ op, target: r.holdId, key: r.idempotencyKey, effective: before === 'held' && h.status !== 'held' });
        return h;
      } catch (err) {
        calls.push({ op, target: r.holdId, key: r.idempotencyKey, effective: false, error: String(err) });
        throw err;
      }
    };
  }
  const engine = w.sim.engine;
  const accrue = engine.accrue.bind(engine);
  engine.accrue = (r) => {
    const effective = engine.getAccrual(r.idempotencyKey) === null;
    const res = accrue(r);
    calls.push({ op: 'accrue', target: r.orderRef, key: r.idempotencyKey, effective });
    return res;
  };
}, 120_000);

afterAll(async () => {
  await Promise.all(sweepers.map((s) => s.close()));
  await w?.close();
});

/** Both processes sweep at `at`, at the same moment, `rounds` times. */
async function sweepBoth(at: Date, rounds = 2): Promise<void> {
  for (let i = 0; i < rounds; i++) reports.push(...(await Promise.all(sweepers.map((s) => s.sweep(at)))));
}

const idsOf = (group: Group) => GROUPS[group].guests.map((n) => ids.get(`${group}-${n}`)!);

describe('two hold sweepers in two processes on one database', () => {
  it('settle each leg, each accrual and each cancellation once', async () => {
    const at = (min: number) => new Date(t0.getTime() + min * MIN);
    // 2 min: verified/cancelled/rejected legs settled, holding legs read back; accruals fail (both record it)
    w.sim.setFaults({ status5xx: 503, only: ['accrual'] });
    await sweepBoth(at(2));
    w.sim.setFaults({ status5xx: 0, only: undefined });
    const failedOnce = await w.db.query<Row>(`SELECT accrual_attempts, accrual_next_at FROM orders WHERE id = ANY($1::uuid[])`, [
      ACCRUALS.now.map((n) => ids.get(`accrue-now-${n}`)),
    ]);
    // one failure recorded per order although both processes tried: the back-off is 1 minute, not doubled
    expect(failedOnce.map((o) => o.accrual_attempts)).toEqual(ACCRUALS.now.map(() => 1));
    await sweepBoth(at(4)); // the failed accruals again, after their 1-minute back-off
    await sweepBoth(at(31), 3); // 30-minute rules; read-back legs confirmed; accruals backed off to 20 min
    await sweepBoth(at(62)); // accruals backed off to 61 min; settlement retries
    await sweepBoth(at(125), 1); // nothing left to do

    // The loyalty service: each hold changed once, under one key, and no settle call was refused.
    expect(calls.filter((c) => c.error)).toEqual([]);
    const byTarget = new Map<string, typeof calls>();
    for (const c of calls) byTarget.set(c.target, [...(byTarget.get(c.target) ?? []), c]);
    for (const [target, cs] of byTarget) {
      expect({ target, effective: cs.filter((c) => c.effective).length }).toEqual({ target, effective: 1 });
      expect({ target, keys: new Set(cs.map((c) => c.key)).size, ops: new Set(cs.map((c) => c.op)).size }).toEqual({ target, keys: 1, ops: 1 });
    }
    const legs = await w.db.query<Row>(`SELECT l.*, o.external_order_id AS ext FROM loyalty_legs l JOIN orders o ON o.id = l.order_id`);
    const want: Record<Group, string> = {
      verified: 'confirmed',
      holding: 'confirmed',
      cancelled: 'released',
      rejected: 'released',
      queued: 'released',
      unknown: 'released',
      claimed: 'held',
      prepared: 'held',
    };
    for (const l of legs) expect({ ext: l.ext, state: l.state }).toEqual({ ext: l.ext, state: want[l.ext.split('-')[0] as Group] });
    const settled = legs.filter((l) => l.state !== 'held');
    expect(new Set(calls.filter((c) => c.op !== 'accrue').map((c) => c.target))).toEqual(new Set(settled.map((l) => l.hold_id)));
    for (const h of w.sim.engine.holds.list()) {
      const leg = legs.find((l) => l.hold_id === h.id)!;
      expect({ hold: h.id, status: h.status }).toEqual({ hold: h.id, status: leg.state });
    }

    // Accruals: one per order, all done, and the wallets balance (opening − confirmed bonus + accrued).
    const accrualOrders = await w.db.query<Row>(
      `SELECT id, guest_phone, accrual_state, accrued_minor, paid_minor FROM orders WHERE accrual_state <> 'none'`,
    );
    expect(accrualOrders.map((o) => o.accrual_state)).toEqual(accrualOrders.map(() => 'done'));
    const accrueCalls = calls.filter((c) => c.op === 'accrue' && c.effective).map((c) => c.target);
    expect(accrueCalls.sort()).toEqual(accrualOrders.map((o) => o.id).sort());
    for (let n = 0; n < 30; n++) {
      const wallet = w.sim.engine.customers.find({ phone: phoneOf(n) }).wallets.find((x) => x.type === 'bonus')!;
      const mine = legs.filter((l) => l.kind === 'bonus' && l.ext.endsWith(`-${n}`) && !l.ext.startsWith('accrue'));
      const spent = mine.filter((l) => l.state === 'confirmed').reduce((s, l) => s + Number(l.amount_minor), 0);
      const held = mine.filter((l) => l.state === 'held').reduce((s, l) => s + Number(l.amount_minor), 0);
      const accrued = accrualOrders.filter((o) => o.guest_phone === phoneOf(n)).reduce((s, o) => s + Number(o.accrued_minor), 0);
      expect({ n, balance: wallet.balanceMinor, held: wallet.heldMinor }).toEqual({ n, balance: GUEST_BONUS - spent + accrued, held });
    }

    // The outbox: exactly one event per decision.
    const events = await w.db.query<Row>(`SELECT order_id, type, count(*)::int AS n FROM webhook_events GROUP BY order_id, type`);
    const got = new Map(events.map((e) => [`${e.order_id} ${e.type}`, e.n]));
    const expected = new Map<string, number>();
    const expect1 = (orderIds: string[], type: string, n: number) => {
      for (const id of orderIds) expected.set(`${id} ${type}`, n);
    };
    expect1([...idsOf('verified'), ...idsOf('holding')], 'order.loyalty_confirmed', 2);
    expect1([...idsOf('cancelled'), ...idsOf('rejected'), ...idsOf('queued')], 'order.loyalty_released', 2);
    expect1(idsOf('queued'), 'order.state_changed', 1);
    expect1([...idsOf('claimed'), ...idsOf('prepared')], 'order.cancel_requested', 1);
    expect1(
      accrualOrders.map((o) => o.id),
      'order.accrued',
      1,
    );
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(expected));

    // What the processes reported adds up to the same decisions (no decision counted by both).
    const total = (k: keyof SweepReport) => reports.reduce((s, r) => s + r[k], 0);
    expect({
      confirmed: total('confirmed'),
      cancelled: total('cancelled'),
      cancelRequested: total('cancelRequested'),
      accrued: total('accrued'),
    }).toEqual({ confirmed: 24, cancelled: GROUPS.queued.guests.length, cancelRequested: 4, accrued: accrualOrders.length });
  }, 60_000);
});
