import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@app/shared';
import { startLoyaltySimulator, type RunningSimulator } from '@app/loyalty-simulator';
import { HttpLoyalty } from '../../src/loyalty/loyalty.http.js';
import { GUEST_PHONE, line, LOYALTY_LOGIN, LOYALTY_ORG, LOYALTY_OTHER_ORG, makeLoyaltyConfig, SODA } from '../support/loyalty.fixtures.js';
import type { LoyaltyError } from '../../src/loyalty/loyalty.port.js';

let sim: RunningSimulator;
let loyalty: HttpLoyalty;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock('2026-11-23T09:00:00Z');
  sim = await startLoyaltySimulator({ config: makeLoyaltyConfig({ faults: {} }), port: 0, clock });
  loyalty = new HttpLoyalty({ baseUrl: sim.url, apiLogin: LOYALTY_LOGIN, timeoutMs: 300 });
});
afterEach(() => sim.close());

const cart = { organizationId: LOYALTY_ORG, phone: GUEST_PHONE, lines: [line(SODA, 1000, 30000)] };
const leg = (n: number) => ({
  idempotencyKey: `leg-${n}`,
  kind: 'bonus' as const,
  organizationId: LOYALTY_ORG,
  phone: GUEST_PHONE,
  orderRef: `o-${n}`,
  amountMinor: 100,
});

async function failure(p: Promise<unknown>): Promise<LoyaltyError> {
  return p.then(
    () => expect.unreachable('expected a LoyaltyError'),
    (e: LoyaltyError) => e,
  );
}

describe('HttpLoyalty failure mapping', () => {
  it('answers 429 rate_limited after 4 writes a minute (default), with Retry-After following the clock', async () => {
    for (let i = 1; i <= 4; i++) await loyalty.hold(leg(i));
    const e = await failure(loyalty.hold(leg(5)));
    expect([e.code, e.retryAfterSeconds]).toEqual(['rate_limited', 60]);
    // Reads are not limited.
    await loyalty.calculate(cart);
    clock.advance(45_000);
    expect((await failure(loyalty.hold(leg(5)))).retryAfterSeconds).toBe(15);
    clock.advance(15_000);
    expect((await loyalty.hold(leg(5))).amountMinor).toBe(100);
  });

  it('honours a configured write limit and switching it off at run time', async () => {
    sim.setFaults({ writeLimitPerMinute: 1 });
    await loyalty.hold(leg(1));
    expect((await failure(loyalty.hold(leg(2)))).code).toBe('rate_limited');
    sim.setFaults({ writeLimitPerMinute: 0 });
    await loyalty.hold(leg(2));
  });

  it('turns a service that never answers into unavailable/timeout within the per-call timeout', async () => {
    sim.setFaults({ timeout: true });
    const t0 = performance.now();
    const e = await failure(loyalty.calculate(cart));
    expect([e.code, e.reason]).toEqual(['unavailable', 'timeout']);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('turns a slow answer beyond the timeout into unavailable, and a slow one within it into success', async () => {
    sim.setFaults({ slowMs: 600, only: ['calculate'] });
    expect((await failure(loyalty.calculate(cart))).reason).toBe('timeout');
    sim.setFaults({ slowMs: 50 });
    expect((await loyalty.calculate(cart)).guestFound).toBe(true);
  });

  it('after a timeout the service may still commit the hold: getHold reads it back and a repeat does not hold twice', async () => {
    sim.setFaults({ slowMs: 400, only: ['hold'] });
    expect((await failure(loyalty.hold(leg(1)))).reason).toBe('timeout');
    sim.setFaults({ slowMs: 0 });
    let found = await loyalty.getHold('leg-1');
    for (let i = 0; !found && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 20)); // the slow request finishes on the server in real time
      found = await loyalty.getHold('leg-1');
    }
    expect(found).toMatchObject({ amountMinor: 100, status: 'held' });
    expect((await loyalty.hold(leg(1))).holdId).toBe(found!.holdId);
    expect(sim.engine.customers.byPhoneNumber(GUEST_PHONE)!.wallets[0].heldMinor).toBe(100);
  });

  it('maps 5xx to unavailable/server_error', async () => {
    sim.setFaults({ status5xx: 503 });
    const e = await failure(loyalty.hold(leg(1)));
    expect([e.code, e.reason]).toEqual(['unavailable', 'server_error']);
    expect(await loyalty.getHold('leg-1').catch((x: LoyaltyError) => x.code)).toBe('unavailable');
    sim.setFaults({ status5xx: 0 });
    expect(await loyalty.getHold('leg-1')).toBeNull();
  });

  it('maps an injected rejection of holds to rejected, leaving calculation alone', async () => {
    sim.setFaults({ reject: true });
    const e = await failure(loyalty.hold(leg(1)));
    expect([e.code, e.reason]).toEqual(['rejected', 'rejected']);
    expect((await loyalty.calculate(cart)).bonus.balanceMinor).toBe(50000);
  });

  it('maps an organization without loyalty to unavailable/not_connected', async () => {
    const c = await failure(loyalty.calculate({ ...cart, organizationId: LOYALTY_OTHER_ORG }));
    expect([c.code, c.reason]).toEqual(['unavailable', 'not_connected']);
    const h = await failure(loyalty.hold({ ...leg(1), organizationId: LOYALTY_OTHER_ORG }));
    expect([h.code, h.reason]).toEqual(['unavailable', 'not_connected']);
  });

  it('maps a caller abort to unavailable/aborted', async () => {
    sim.setFaults({ timeout: true });
    const ac = new AbortController();
    const p = failure(loyalty.calculate(cart, { signal: ac.signal }));
    setTimeout(() => ac.abort(), 20);
    expect((await p).reason).toBe('aborted');
  });

  it('maps a refused connection to unavailable/network', async () => {
    const url = sim.url;
    await sim.close();
    const e = await failure(new HttpLoyalty({ baseUrl: url, apiLogin: LOYALTY_LOGIN }).calculate(cart));
    expect([e.code, e.reason]).toEqual(['unavailable', 'network']);
    sim = await startLoyaltySimulator({ config: makeLoyaltyConfig(), clock });
  });

  it('gets a new token when the old one expired, and reports a wrong login as unavailable/auth', async () => {
    await loyalty.calculate(cart);
    clock.advance(2 * 3600_000);
    expect((await loyalty.calculate(cart)).guestFound).toBe(true);
    const e = await failure(new HttpLoyalty({ baseUrl: sim.url, apiLogin: 'wrong' }).calculate(cart));
    expect([e.code, e.reason]).toEqual(['unavailable', 'auth']);
  });
});
