import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@app/shared';
import { startLoyaltySimulator, type RunningSimulator } from '@app/loyalty-simulator';
import { HttpLoyalty } from '../../src/loyalty/loyalty.http.js';
import {
  GIFT_DESSERT,
  GUEST_PHONE,
  line,
  LOYALTY_LOGIN,
  LOYALTY_ORG,
  makeLoyaltyConfig,
  PIZZA,
  POOR_PHONE,
  SODA,
  UNKNOWN_PHONE,
} from '../support/loyalty.fixtures.js';
import type { LoyaltyError } from '../../src/loyalty/loyalty.port.js';

let sim: RunningSimulator;
let loyalty: HttpLoyalty;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock('2026-11-23T09:00:00Z');
  sim = await startLoyaltySimulator({ config: makeLoyaltyConfig(), port: 0, clock });
  loyalty = new HttpLoyalty({ baseUrl: sim.url, apiLogin: LOYALTY_LOGIN });
});
afterEach(() => sim.close());

const org = LOYALTY_ORG;
/** 2 × 800 RUB pizza = 1600 RUB: over the 10 % threshold and earns the dessert gift. */
const bigCart = [line(PIZZA, 2000, 80000)];
/** 1.5 × 200 RUB soda = 300 RUB: no program applies. */
const smallCart = [line(SODA, 1500, 20000)];

async function failure(p: Promise<unknown>): Promise<LoyaltyError> {
  return p.then(
    () => expect.unreachable('expected a LoyaltyError'),
    (e: LoyaltyError) => e,
  );
}

describe('HttpLoyalty.calculate against the simulator', () => {
  it('applies the automatic program, the mapped gift and the bonus ceiling', async () => {
    const r = await loyalty.calculate({ organizationId: org, phone: GUEST_PHONE, lines: bigCart });
    expect(r.programDiscountMinor).toBe(16000);
    expect(r.coupon).toEqual({ status: 'not_requested', discountMinor: 0 });
    expect(r.discounts).toEqual([{ programId: 'p10', name: '10% from 1500 RUB', kind: 'program', amountMinor: 16000, posDiscountId: 'pos-disc-10' }]);
    expect(r.gifts).toEqual([{ productId: GIFT_DESSERT, quantityMilli: 1000, programId: 'gift', posDiscountId: 'pos-disc-gift' }]);
    expect(r.guestFound).toBe(true);
    expect(r.bonus).toEqual({ balanceMinor: 50000, maxSpendMinor: 50000 });
    expect(r.certificate).toBeUndefined();
  });

  it('limits bonus maxSpend by the check after discounts, with decimal quantities converted exactly', async () => {
    const r = await loyalty.calculate({ organizationId: org, phone: GUEST_PHONE, lines: smallCart, coupon: 'WELCOME200' });
    expect(r.programDiscountMinor).toBe(0);
    expect(r.coupon).toEqual({ status: 'applied', discountMinor: 20000 });
    expect(r.bonus).toEqual({ balanceMinor: 50000, maxSpendMinor: 30000 - 20000 });
  });

  it('attributes the coupon discount to the coupon, not to programDiscount', async () => {
    const r = await loyalty.calculate({ organizationId: org, lines: bigCart, coupon: 'welcome200 ' });
    expect(r.programDiscountMinor).toBe(16000);
    expect(r.coupon).toEqual({ status: 'applied', discountMinor: 20000 });
    expect(r.discounts.find((d) => d.kind === 'coupon')).toEqual({
      programId: 'coupon-WELCOME200',
      name: 'Promo code WELCOME200',
      kind: 'coupon',
      amountMinor: 20000,
      posDiscountId: 'pos-disc-w200',
    });
    expect(r.guestFound).toBe(false);
    expect(r.bonus).toEqual({ balanceMinor: 0, maxSpendMinor: 0 });
  });

  it('reports an unknown or expired coupon as invalid, and an unmapped one with posDiscountId null', async () => {
    const unknown = await loyalty.calculate({ organizationId: org, lines: smallCart, coupon: 'NOPE' });
    expect(unknown.coupon).toEqual({ status: 'invalid', discountMinor: 0, reason: 'not_found' });
    expect(unknown.discounts).toEqual([]);
    const old = await loyalty.calculate({ organizationId: org, lines: smallCart, coupon: 'OLD' });
    expect(old.coupon).toEqual({ status: 'invalid', discountMinor: 0, reason: 'expired' });
    const unmapped = await loyalty.calculate({ organizationId: org, lines: smallCart, coupon: 'UNMAPPED50' });
    expect(unmapped.coupon.status).toBe('applied');
    expect(unmapped.discounts).toEqual([expect.objectContaining({ kind: 'coupon', amountMinor: 5000, posDiscountId: null })]);
  });

  it('checks certificate availability without spending it', async () => {
    const ok = await loyalty.calculate({ organizationId: org, lines: smallCart, certificate: { serial: 'CERT-1000', amountMinor: 30000 } });
    expect(ok.certificate).toEqual({ status: 'available', availableMinor: 100000 });
    const short = await loyalty.calculate({ organizationId: org, lines: smallCart, certificate: { serial: 'CERT-1000', amountMinor: 100001 } });
    expect(short.certificate).toEqual({ status: 'insufficient', availableMinor: 100000 });
    const bad = await loyalty.calculate({ organizationId: org, lines: smallCart, certificate: { serial: 'CERT-0', amountMinor: 100 } });
    expect(bad.certificate).toEqual({ status: 'invalid', availableMinor: 0 });
  });

  it('treats an unknown phone as no guest', async () => {
    const r = await loyalty.calculate({ organizationId: org, phone: UNKNOWN_PHONE, lines: smallCart });
    expect(r.guestFound).toBe(false);
    expect(r.bonus).toEqual({ balanceMinor: 0, maxSpendMinor: 0 });
  });
});

describe('HttpLoyalty holds, confirm, release', () => {
  const bonusLeg = {
    idempotencyKey: 'leg-bonus-1',
    kind: 'bonus' as const,
    organizationId: org,
    phone: GUEST_PHONE,
    orderRef: 'order-1',
    amountMinor: 20000,
  };

  it('hold → confirm spends the bonus; confirm is idempotent', async () => {
    const h = await loyalty.hold(bonusLeg);
    expect(h.amountMinor).toBe(20000);
    expect((await loyalty.calculate({ organizationId: org, phone: GUEST_PHONE, lines: bigCart })).bonus.balanceMinor).toBe(30000);
    await loyalty.confirm({ holdId: h.holdId, idempotencyKey: 'leg-bonus-1:confirm' });
    await loyalty.confirm({ holdId: h.holdId, idempotencyKey: 'leg-bonus-1:confirm' });
    const wallet = sim.engine.customers.byPhoneNumber(GUEST_PHONE)!.wallets[0];
    expect(wallet).toMatchObject({ balanceMinor: 30000, heldMinor: 0 });
    expect(await loyalty.getHold('leg-bonus-1')).toEqual({ holdId: h.holdId, amountMinor: 20000, status: 'confirmed' });
  });

  it('hold → release returns the amount; release is idempotent; confirm after release is rejected', async () => {
    const h = await loyalty.hold(bonusLeg);
    await loyalty.release({ holdId: h.holdId, idempotencyKey: 'rel-1' });
    await loyalty.release({ holdId: h.holdId, idempotencyKey: 'rel-1' });
    expect((await loyalty.calculate({ organizationId: org, phone: GUEST_PHONE, lines: bigCart })).bonus.balanceMinor).toBe(50000);
    const e = await failure(loyalty.confirm({ holdId: h.holdId, idempotencyKey: 'conf-1' }));
    expect([e.code, e.reason]).toEqual(['rejected', 'hold_state']);
    expect((await failure(loyalty.release({ holdId: 'no-such-hold', idempotencyKey: 'rel-2' }))).reason).toBe('hold_not_found');
  });

  it('the same idempotency key returns the same hold and holds once; other data under it is a conflict', async () => {
    const a = await loyalty.hold(bonusLeg);
    const b = await loyalty.hold(bonusLeg);
    expect(b).toEqual(a);
    expect(sim.engine.customers.byPhoneNumber(GUEST_PHONE)!.wallets[0].heldMinor).toBe(20000);
    const e = await failure(loyalty.hold({ ...bonusLeg, amountMinor: 1 }));
    expect([e.code, e.reason]).toEqual(['rejected', 'idempotency_conflict']);
  });

  it('rejects an insufficient balance, an unknown guest, an invalid coupon and an invalid certificate', async () => {
    const poor = await failure(loyalty.hold({ ...bonusLeg, idempotencyKey: 'k1', phone: POOR_PHONE }));
    expect([poor.code, poor.reason]).toEqual(['rejected', 'insufficient_balance']);
    expect((await failure(loyalty.hold({ ...bonusLeg, idempotencyKey: 'k2', phone: UNKNOWN_PHONE }))).reason).toBe('guest_not_found');
    const coupon = await failure(
      loyalty.hold({ idempotencyKey: 'k3', kind: 'coupon', organizationId: org, orderRef: 'o', amountMinor: 100, coupon: 'OLD' }),
    );
    expect([coupon.code, coupon.reason]).toEqual(['rejected', 'coupon_invalid']);
    const cert = await failure(
      loyalty.hold({ idempotencyKey: 'k4', kind: 'certificate', organizationId: org, orderRef: 'o', amountMinor: 100, certificateSerial: 'CERT-0' }),
    );
    expect([cert.code, cert.reason]).toEqual(['rejected', 'certificate_invalid']);
    expect(await loyalty.getHold('k1')).toBeNull();
  });

  it('a single-use coupon held by one order is invalid for another until released', async () => {
    const leg = { idempotencyKey: 'c1', kind: 'coupon' as const, organizationId: org, orderRef: 'o1', amountMinor: 4500, coupon: 'ONCE15' };
    const h = await loyalty.hold(leg);
    expect((await loyalty.calculate({ organizationId: org, lines: smallCart, coupon: 'ONCE15' })).coupon).toEqual({
      status: 'invalid',
      discountMinor: 0,
      reason: 'used',
    });
    expect((await failure(loyalty.hold({ ...leg, idempotencyKey: 'c2', orderRef: 'o2' }))).reason).toBe('coupon_invalid');
    await loyalty.release({ holdId: h.holdId, idempotencyKey: 'c1:release' });
    expect((await loyalty.calculate({ organizationId: org, lines: smallCart, coupon: 'ONCE15' })).coupon).toEqual({
      status: 'applied',
      discountMinor: 4500,
    });
  });

  it('holds and confirms a certificate leg', async () => {
    const h = await loyalty.hold({
      idempotencyKey: 'cert-1',
      kind: 'certificate',
      organizationId: org,
      orderRef: 'o',
      amountMinor: 30000,
      certificateSerial: 'CERT-1000',
    });
    await loyalty.confirm({ holdId: h.holdId, idempotencyKey: 'cert-1:confirm' });
    const r = await loyalty.calculate({ organizationId: org, lines: smallCart, certificate: { serial: 'CERT-1000', amountMinor: 80000 } });
    expect(r.certificate).toEqual({ status: 'insufficient', availableMinor: 70000 });
  });
});

describe('HttpLoyalty accrual', () => {
  it('accrues the guest percent once per key and reads the outcome back', async () => {
    expect(await loyalty.getAccrual('acc-1')).toBeNull();
    const req = { idempotencyKey: 'acc-1', organizationId: org, phone: GUEST_PHONE, orderRef: 'order-9', paidMinor: 123456 };
    expect(await loyalty.accrue(req)).toEqual({ accruedMinor: 6172 });
    expect(await loyalty.accrue(req)).toEqual({ accruedMinor: 6172 });
    expect(await loyalty.getAccrual('acc-1')).toEqual({ accruedMinor: 6172 });
    expect(sim.engine.customers.byPhoneNumber(GUEST_PHONE)!.wallets[0].balanceMinor).toBe(50000 + 6172);
    expect((await failure(loyalty.accrue({ ...req, idempotencyKey: 'acc-2', phone: UNKNOWN_PHONE }))).reason).toBe('guest_not_found');
  });
});

describe('HttpLoyalty.guestLoyalty against the simulator (customer/info)', () => {
  it('reads balances in kopecks, the category and the guest’s usable coupons', async () => {
    await sim.close();
    const base = makeLoyaltyConfig();
    sim = await startLoyaltySimulator({
      config: makeLoyaltyConfig({ guests: [{ ...base.guests[0], category: 'Silver', coupons: ['WELCOME200', 'OLD'] }] }),
      port: 0,
      clock,
    });
    loyalty = new HttpLoyalty({ baseUrl: sim.url, apiLogin: LOYALTY_LOGIN });
    const g = await loyalty.guestLoyalty(org, GUEST_PHONE);
    expect(g).toEqual({
      wallets: [{ id: expect.any(String), name: 'Bonus', type: 'bonus', balanceMinor: 50000 }],
      categories: [{ id: 'category-Silver', name: 'Silver' }],
      coupons: [{ number: 'WELCOME200', name: null, percent: null, amountMinor: 20000, validTo: null }],
    });
  });

  it('answers null for a phone the service does not know', async () => {
    expect(await loyalty.guestLoyalty(org, UNKNOWN_PHONE)).toBeNull();
  });
});
