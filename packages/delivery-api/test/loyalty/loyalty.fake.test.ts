import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, SequentialIds } from '@app/shared';
import { startLoyaltySimulator, type RunningSimulator } from '@app/loyalty-simulator';
import { FakeLoyalty } from '../support/loyalty.fake.js';
import { HttpLoyalty } from '../../src/loyalty/loyalty.http.js';
import {
  GUEST_PHONE,
  line,
  LOYALTY_LOGIN,
  LOYALTY_ORG,
  LOYALTY_OTHER_ORG,
  makeLoyaltyConfig,
  PIZZA,
  POOR_PHONE,
  SODA,
} from '../support/loyalty.fixtures.js';
import { isLoyaltyError, type LoyaltyPort } from '../../src/loyalty/loyalty.port.js';

const org = LOYALTY_ORG;
const big = [line(PIZZA, 2000, 80000)];
const small = [line(SODA, 1500, 20000)];
/** Default write limit (4 a minute) on purpose: the fake must run into it exactly where the simulator does. */
const config = () => makeLoyaltyConfig({ faults: {} });

/**
 * One scenario touching every rule: calculation variants, idempotent holds, single-use coupon, confirm/release
 * states, the write limit and its window, accrual. Returns a transcript with hold ids numbered by appearance.
 */
async function scenario(port: LoyaltyPort, clock: ManualClock): Promise<unknown[]> {
  const out: unknown[] = [];
  const holdIds = new Map<string, string>();
  const norm = (v: unknown): unknown =>
    JSON.parse(JSON.stringify(v ?? null), (k, x) => (k === 'holdId' ? (holdIds.get(x) ?? holdIds.set(x, `H${holdIds.size + 1}`).get(x)) : x));
  const step = async (name: string, f: () => Promise<unknown>) => {
    try {
      out.push([name, 'ok', norm(await f())]);
    } catch (e) {
      if (!isLoyaltyError(e)) throw e;
      out.push([name, 'error', e.code, e.reason, e.retryAfterSeconds ?? null]);
    }
  };
  const real = new Map<string, string>();
  const hold = (name: string, req: Parameters<LoyaltyPort['hold']>[0]) =>
    step(name, async () => {
      const h = await port.hold(req);
      real.set(req.idempotencyKey, h.holdId);
      return h;
    });

  await step('calc full', () =>
    port.calculate({
      organizationId: org,
      phone: GUEST_PHONE,
      lines: big,
      coupon: 'WELCOME200',
      certificate: { serial: 'CERT-1000', amountMinor: 5000 },
      bonusToSpendMinor: 1000,
    }),
  );
  await step('calc invalid coupon', () => port.calculate({ organizationId: org, lines: small, coupon: 'NOPE' }));
  await step('calc not connected', () => port.calculate({ organizationId: LOYALTY_OTHER_ORG, lines: small }));
  const bonus = { idempotencyKey: 'b1', kind: 'bonus' as const, organizationId: org, phone: GUEST_PHONE, orderRef: 'o1', amountMinor: 20000 };
  await hold('hold bonus', bonus);
  await hold('hold bonus again', bonus);
  await hold('hold coupon', { idempotencyKey: 'c1', kind: 'coupon', organizationId: org, orderRef: 'o1', amountMinor: 4500, coupon: 'once15' });
  await step('calc coupon used', () => port.calculate({ organizationId: org, phone: GUEST_PHONE, lines: small, coupon: 'ONCE15' }));
  await step('confirm bonus', () => port.confirm({ holdId: real.get('b1')!, idempotencyKey: 'b1:c' }));
  await step('release coupon (write limit)', () => port.release({ holdId: real.get('c1')!, idempotencyKey: 'c1:r' }));
  clock.advance(60_000);
  await step('release coupon', () => port.release({ holdId: real.get('c1')!, idempotencyKey: 'c1:r' }));
  await step('confirm released', () => port.confirm({ holdId: real.get('c1')!, idempotencyKey: 'c1:c' }));
  await hold('hold poor', { ...bonus, idempotencyKey: 'b2', phone: POOR_PHONE });
  await hold('hold other org', { ...bonus, idempotencyKey: 'b3', organizationId: LOYALTY_OTHER_ORG });
  await hold('hold unknown guest', { ...bonus, idempotencyKey: 'b4', phone: '+79990000077' });
  // Failed lookups are reads: this is the 4th write of the window, the next one is over the limit.
  await hold('hold 4th write', { ...bonus, idempotencyKey: 'b5', amountMinor: 100 });
  await hold('hold 5th write', { ...bonus, idempotencyKey: 'b6', amountMinor: 100 });
  clock.advance(60_000);
  // the same key answers its hold as it is now (released), not as `held`
  await hold('hold coupon again after release', {
    idempotencyKey: 'c1',
    kind: 'coupon',
    organizationId: org,
    orderRef: 'o1',
    amountMinor: 4500,
    coupon: 'once15',
  });
  await step('get hold', () => port.getHold('b1'));
  await step('get unknown hold', () => port.getHold('nope'));
  const acc = { idempotencyKey: 'a1', organizationId: org, phone: GUEST_PHONE, orderRef: 'o1', paidMinor: 99999 };
  await step('accrue', () => port.accrue(acc));
  await step('accrue again', () => port.accrue(acc));
  await step('get accrual', () => port.getAccrual('a1'));
  await step('calc after', () => port.calculate({ organizationId: org, phone: GUEST_PHONE, lines: small, coupon: 'ONCE15' }));
  return out;
}

describe('FakeLoyalty behaves like the simulator behind HttpLoyalty', () => {
  let sim: RunningSimulator;
  const simClock = new ManualClock('2026-11-23T09:00:00Z');
  beforeAll(async () => {
    sim = await startLoyaltySimulator({ config: config(), clock: simClock });
  });
  afterAll(() => sim.close());

  it('produces the same transcript on the same scenario', async () => {
    const viaHttp = await scenario(new HttpLoyalty({ baseUrl: sim.url, apiLogin: LOYALTY_LOGIN }), simClock);
    const fakeClock = new ManualClock('2026-11-23T09:00:00Z');
    const viaFake = await scenario(new FakeLoyalty({ config: config(), clock: fakeClock, ids: new SequentialIds() }), fakeClock);
    expect(viaFake).toEqual(viaHttp);
    // The scenario really crossed the interesting paths (not a transcript of errors only).
    const kinds = viaHttp.map((s) => (s as unknown[]).slice(1, 3).join(':'));
    expect(kinds).toEqual(expect.arrayContaining(['ok:[object Object]', 'error:rate_limited', 'error:rejected', 'error:unavailable']));
    const byName = (n: string) => viaHttp.find((s) => (s as unknown[])[0] === n);
    expect(byName('accrue')).toEqual(['accrue', 'ok', { accruedMinor: 4999 }]);
    expect(byName('hold 4th write')).toEqual(['hold 4th write', 'ok', { holdId: 'H3', amountMinor: 100, status: 'held' }]);
    expect(byName('hold coupon again after release')).toEqual([
      'hold coupon again after release',
      'ok',
      { holdId: 'H2', amountMinor: 4500, status: 'released' },
    ]);
    expect(byName('hold 5th write')).toEqual(['hold 5th write', 'error', 'rate_limited', 'write_limit', 60]);
  });
});

describe('FakeLoyalty scripting', () => {
  const clock = new ManualClock('2026-11-23T09:00:00Z');
  const make = () => new FakeLoyalty({ config: makeLoyaltyConfig(), clock, ids: new SequentialIds() });
  const leg = { idempotencyKey: 'k', kind: 'bonus' as const, organizationId: org, phone: GUEST_PHONE, orderRef: 'o', amountMinor: 1000 };
  const held = (f: FakeLoyalty) => f.engine.customers.byPhoneNumber(GUEST_PHONE)!.wallets[0].heldMinor;

  it('failNext fails the next n calls without touching the state', async () => {
    const f = make().failNext('hold', 2, 'unavailable');
    await expect(f.hold(leg)).rejects.toMatchObject({ code: 'unavailable' });
    await expect(f.hold(leg)).rejects.toMatchObject({ code: 'unavailable' });
    expect(held(f)).toBe(0);
    expect((await f.hold(leg)).amountMinor).toBe(1000);
    expect(f.count('hold')).toBe(3);
  });

  it('failAfter applies the call then fails, so the outcome can be read back', async () => {
    const f = make().failAfter('hold', 1);
    await expect(f.hold(leg)).rejects.toMatchObject({ code: 'unavailable' });
    expect(await f.getHold('k')).toMatchObject({ amountMinor: 1000, status: 'held' });
    expect(held(f)).toBe(1000);
  });

  it('scripts rejected and rate_limited with their details', async () => {
    const f = make().failNext('confirm', 1, 'rejected').failNext('accrue', 1, 'rate_limited');
    await expect(f.confirm({ holdId: 'x', idempotencyKey: 'y' })).rejects.toMatchObject({ code: 'rejected' });
    await expect(f.accrue({ idempotencyKey: 'a', organizationId: org, phone: GUEST_PHONE, orderRef: 'o', paidMinor: 1 })).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: 60,
    });
  });

  it('gate holds a call in progress until opened', async () => {
    const f = make();
    const gate = f.gate('hold');
    let done = false;
    const p = f.hold(leg).then((h) => ((done = true), h));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    expect(held(f)).toBe(0);
    gate.open();
    expect((await p).amountMinor).toBe(1000);
  });

  it('a delayed call honours the abort signal', async () => {
    const f = make().delayMs('calculate', 10_000);
    const ac = new AbortController();
    const p = f.calculate({ organizationId: org, lines: small }, { signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'unavailable', reason: 'aborted' });
  });
});
