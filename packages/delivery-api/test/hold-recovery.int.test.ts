import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoyaltyError } from '../src/loyalty/loyalty.port.js';
import { OperatorError } from '../src/errors.js';
import { throwAt } from './support/crash-points.js';
import { SETTLE_MAX_ATTEMPTS, settleRetryDelayMs } from '../src/holds/loyalty-holds.js';
import { OrderSupportService } from '../src/orders/order-support.js';
import { TenantsRepo } from '../src/tenants/tenants.repo.js';
import { MARGHERITA, makeWorld, sampleMenu, type World } from './harness.js';
import { checkoutOrder, claimOrder, createOrder, legsOf, reportState } from './order-factory.js';

// Regression tests of the hold recovery rules (docs/loyalty.md); each failed on the code before its fix.
const crash = throwAt([]);
let w: World;
beforeAll(async () => {
  w = await makeWorld({ loyaltyRequestsPerMinute: 100000, crash });
  await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
  await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
  await w.call(w.pos['1'], 'POST', '/pos/v1/streets', { streets: [{ name: 'Тверская улица', city: 'Москва' }] });
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});
beforeEach(() => crash.armed.clear());

const holdCalls = (kind: string) => w.loyalty.calls.filter((c) => c.method === 'hold' && (c.args as { kind: string }).kind === kind).length;
const orderRow = async (id: string) => (await w.db.query<Record<string, unknown>>('SELECT * FROM orders WHERE id = $1', [id]))[0];
const eventsOf = (id: string) => w.events.events.filter((e) => e.order.id === id).map((e) => e.type);
/** Runs the sweeper with the clock moved forward, then moves it back (other tests share the clock). */
async function sweepAfter(ms: number) {
  w.clock.advance(ms);
  try {
    return await w.services.sweeper.runOnce();
  } finally {
    w.clock.advance(-ms);
  }
}

describe('defect 1: a same-body retry reuses its own held legs', () => {
  it('crash after the bonus hold: the retry is created with the held bonus, not 409 price_changed', async () => {
    // the whole balance (500 ₽): after the hold the loyalty service reports 0 available to anyone else
    const { order } = await checkoutOrder(w, { items: [{ id: MARGHERITA, quantity: '2' }], bonus: 50000 });
    crash.armed.add('hold.after_record.bonus');
    expect((await createOrder(w, order)).statusCode).toBe(500);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['bonus:held']);
    const holds = holdCalls('bonus');
    const retry = await createOrder(w, order);
    expect(retry.statusCode).toBe(201);
    expect(holdCalls('bonus')).toBe(holds); // reused, not held again
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['bonus:held']);
    const row = await orderRow(retry.json().id);
    expect(Number(row.bonus_spend_minor)).toBe(50000);
    // the POS refuses it: the bonus is given back to the guest for the tests below
    const c = await claimOrder(w, retry.json().id);
    await reportState(w, retry.json().id, c.claimId, 'rejected_final');
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['bonus:released']);
  });

  it('a held single-use coupon counts as applied with its recorded amount and POS discount line', async () => {
    const { order, calc } = await checkoutOrder(w, { items: [{ id: MARGHERITA, quantity: '2' }], coupon: 'ONCE15', bonus: 100 });
    crash.armed.add('hold.before_call.bonus'); // coupon held; the process dies before the bonus call
    expect((await createOrder(w, order)).statusCode).toBe(500);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['bonus:holding', 'coupon:held']);
    expect((await createOrder(w, order)).statusCode).toBe(409); // hold_in_progress until the sweeper reads it back
    await sweepAfter(3 * 60_000);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['bonus:failed', 'coupon:held']);
    const retry = await createOrder(w, order);
    expect(retry.statusCode).toBe(201);
    const row = await orderRow(retry.json().id);
    const p = row.pos_payload as { discounts: { discountTypeId: string; sumMinor: number; kind: string }[] };
    expect(p.discounts).toContainEqual({ discountTypeId: 'pos-disc-once', sumMinor: calc.coupon.discount.amountMinor, kind: 'coupon' });
    const c = await claimOrder(w, retry.json().id);
    await reportState(w, retry.json().id, c.claimId, 'rejected_final'); // frees the single-use coupon for the tests below
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['bonus:released', 'coupon:released']);
  });
});

describe('defect 1 (unknown outcome): a hold that timed out after it took effect', () => {
  it('a single-use coupon held by a call that timed out is the retry’s own: created with the coupon, held once', async () => {
    const { order } = await checkoutOrder(w, { items: [{ id: MARGHERITA, quantity: '2' }], coupon: 'ONCE15' });
    w.loyalty.failAfter('hold', 1, 'unavailable'); // the service reserved the coupon; the answer was lost
    expect((await createOrder(w, order)).statusCode).toBe(503);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:failed']);
    const retry = await createOrder(w, order);
    expect(retry.statusCode).toBe(201);
    const held = w.loyalty.engine.holds.list().filter((h) => h.couponCode === 'ONCE15' && h.status === 'held');
    expect(held).toHaveLength(1);
    const c = await claimOrder(w, retry.json().id);
    await reportState(w, retry.json().id, c.claimId, 'rejected_final'); // frees the coupon for the tests below
  });
});

describe('defect 2: a sweeper-made cancellation never reaches the POS after verification', () => {
  it('prepared → 31 min → requested by the sweeper → POS verifies → request withdrawn, coupon confirmed, nothing to cancel', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    const o = (await createOrder(w, order)).json();
    const c = await claimOrder(w, o.id);
    await reportState(w, o.id, c.claimId, 'prepared');
    await sweepAfter(31 * 60_000);
    expect((await orderRow(o.id)).cancel_state).toBe('requested');
    expect((await reportState(w, o.id, c.claimId, 'created_verified', { posOrderId: 'pos-1' })).statusCode).toBe(200);
    const row = await orderRow(o.id);
    expect(row).toMatchObject({ state: 'created_verified', cancel_state: 'none' });
    expect(eventsOf(o.id)).toContain('order.cancel_result');
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:confirmed']);
    const cancels = (await w.call(w.pos['1'], 'POST', '/pos/v1/cancellations/claim', {})).json();
    expect(JSON.stringify(cancels)).not.toContain(o.id);
  });

  it('a decided cancel state (the POS refused) is never overwritten by the sweeper', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    const o = (await createOrder(w, order)).json();
    const c = await claimOrder(w, o.id);
    await reportState(w, o.id, c.claimId, 'create_sending');
    expect((await w.call(w.partner, 'POST', `/v1/orders/${o.id}/cancel`, { reason: 'guest_request', comment: '' })).statusCode).toBe(202);
    await w.call(w.pos['1'], 'POST', '/pos/v1/cancellations/claim', {});
    await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/cancel-result`, { result: 'rejected', detail: 'not_new' });
    expect((await orderRow(o.id)).cancel_state).toBe('rejected');
    const rep = await sweepAfter(31 * 60_000);
    expect(rep.cancelRequested).toBe(0);
    expect((await orderRow(o.id)).cancel_state).toBe('rejected');
  });

  it('a partner request made after the sweeper’s is kept when the POS verifies', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    const o = (await createOrder(w, order)).json();
    const c = await claimOrder(w, o.id);
    await reportState(w, o.id, c.claimId, 'prepared');
    await sweepAfter(31 * 60_000);
    expect((await w.call(w.partner, 'POST', `/v1/orders/${o.id}/cancel`, { reason: 'guest_request', comment: '' })).statusCode).toBe(202);
    await reportState(w, o.id, c.claimId, 'created_verified', { posOrderId: 'pos-2' });
    expect((await orderRow(o.id)).cancel_state).toBe('requested');
  });
});

describe('defect 3: a definitive rejection releases the attempt’s other legs at once', () => {
  it('coupon held, bonus rejected → coupon released now; the corrected retry gets the coupon', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'ONCE15', bonus: 100 });
    const original = w.loyalty.hold.bind(w.loyalty);
    w.loyalty.hold = async (req, o) => {
      if (req.kind === 'bonus') throw new LoyaltyError('rejected', 'insufficient_balance', 'scripted');
      return original(req, o);
    };
    const releases = w.loyalty.count('release');
    const r = await createOrder(w, order);
    w.loyalty.hold = original;
    expect(r.statusCode).toBe(422);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['bonus:failed', 'coupon:released']);
    expect(w.loyalty.count('release')).toBe(releases + 1);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['bonus:failed', 'coupon:released']);
    // the guest drops the bonus: a new calculation and body under the same externalOrderId
    const fixed = await checkoutOrder(w, { coupon: 'ONCE15', externalOrderId: order.externalOrderId as string });
    expect(fixed.calc.coupon.status).toBe('applied');
    expect((await createOrder(w, fixed.order)).statusCode).toBe(201);
  });
});

describe('defect 4: accrual is bounded, fair and skips tenants without loyalty', () => {
  async function deliveredOrder(): Promise<string> {
    const { order } = await checkoutOrder(w);
    const o = (await createOrder(w, order)).json();
    const c = await claimOrder(w, o.id);
    await reportState(w, o.id, c.claimId, 'created_verified', { posOrderId: `p-${o.id}` });
    await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/delivery-status`, { status: 'Delivered' });
    return o.id;
  }

  it('50 orders failing permanently do not starve a later valid one and end failed after bounded attempts', async () => {
    await w.db.query(`UPDATE orders SET accrual_state = 'done' WHERE accrual_state = 'pending'`);
    const bad = new Set<string>();
    for (let i = 0; i < 50; i++) bad.add(await deliveredOrder());
    const good = await deliveredOrder();
    const accrue = w.loyalty.accrue.bind(w.loyalty);
    w.loyalty.accrue = async (req, o) => {
      if (bad.has(req.orderRef)) throw new LoyaltyError('unavailable', 'not_connected', 'scripted');
      return accrue(req, o);
    };
    try {
      const before = w.loyalty.count('accrue');
      for (let i = 0; i < 5; i++) await w.services.sweeper.runOnce();
      expect((await orderRow(good)).accrual_state).toBe('done');
      expect(w.loyalty.count('accrue') - before).toBeLessThanOrEqual(51); // each failing order tried once, then it backs off
      for (let i = 0; i < 60 && (await w.db.query(`SELECT 1 FROM orders WHERE accrual_state = 'pending'`)).length > 0; i++) {
        w.clock.advance(13 * 3600_000);
        await w.services.sweeper.runOnce();
      }
      const rows = await w.db.query<{ accrual_state: string; accrual_attempts: number; accrual_error: string }>(
        `SELECT accrual_state, accrual_attempts, accrual_error FROM orders WHERE id = ANY($1::uuid[])`,
        [[...bad]],
      );
      expect(rows.every((r) => r.accrual_state === 'failed' && Number(r.accrual_attempts) === 8 && r.accrual_error.includes('not_connected'))).toBe(
        true,
      );
    } finally {
      w.loyalty.accrue = accrue;
    }
  });

  it('a tenant with loyalty off: pending accruals wait without a loyalty call (no longer skipped for good)', async () => {
    const id = await deliveredOrder();
    await new TenantsRepo(w.db).updateSettings('t1', { loyaltyEnabled: false });
    const calls = w.loyalty.count('accrue') + w.loyalty.count('getAccrual');
    await w.services.sweeper.runOnce();
    expect(w.loyalty.count('accrue') + w.loyalty.count('getAccrual')).toBe(calls);
    expect((await orderRow(id)).accrual_state).toBe('pending');
    await new TenantsRepo(w.db).updateSettings('t1', { loyaltyEnabled: true });
    await w.services.sweeper.runOnce();
    expect((await orderRow(id)).accrual_state).toBe('done');
  });
});

describe('defect 5: failed settlement ends in settle_failed, logged, listed and counted', () => {
  it('a confirm that keeps failing gives up after SETTLE_MAX_ATTEMPTS with back-off', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    const o = (await createOrder(w, order)).json();
    const c = await claimOrder(w, o.id);
    const errors = vi.spyOn(w.services.log, 'error');
    w.loyalty.failNext('confirm', SETTLE_MAX_ATTEMPTS, 'unavailable');
    await reportState(w, o.id, c.claimId, 'created_verified', { posOrderId: 'p-settle' });
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:held']);
    const start = w.clock.now().getTime();
    for (let i = 1; i < SETTLE_MAX_ATTEMPTS; i++) {
      w.clock.advance(settleRetryDelayMs(i) + 1000);
      await w.services.sweeper.runOnce();
    }
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:settle_failed']);
    expect(w.loyalty.count('confirm')).toBeGreaterThanOrEqual(SETTLE_MAX_ATTEMPTS);
    const confirmsAfter = w.loyalty.count('confirm');
    w.clock.advance(3600_000);
    await w.services.sweeper.runOnce(); // no more retries in silence
    expect(w.loyalty.count('confirm')).toBe(confirmsAfter);
    w.clock.advance(start - w.clock.now().getTime());
    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ orderId: o.id, kind: 'coupon' }), expect.stringContaining('gave up'));
    const support = new OrderSupportService({ db: w.db, clock: w.clock, events: w.events, holds: w.services.holds });
    const stuck = await support.stuckLegs();
    expect(stuck).toContainEqual(expect.objectContaining({ orderId: o.id, kind: 'coupon', amountMinor: 20000 }));
    const metrics = await w.services.metricsRegistry.metrics();
    expect(metrics).toMatch(/delivery_loyalty_settle_failed_total\{kind="coupon",effect="confirm"\} [1-9]/);
    expect(metrics).toMatch(/delivery_loyalty_legs\{state="settle_failed"\} [1-9]/);
    // support puts it back; the sweeper confirms it now that loyalty answers
    await support.retrySettlement(stuck.find((s) => s.orderId === o.id)!.legId);
    await sweepAfter(2 * 60_000);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:confirmed']);
  });

  it('a definitive refusal (hold already released) gives up at once', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    const o = (await createOrder(w, order)).json();
    const c = await claimOrder(w, o.id);
    w.loyalty.failNext('confirm', 1, 'rejected');
    await reportState(w, o.id, c.claimId, 'created_verified', { posOrderId: 'p-refused' });
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:settle_failed']);
  });
});

describe('defect 6: every path that decides a cancellation emits order.cancel_result', () => {
  it('a 202-requested cancellation executed by the POS after its claim expired (the claim expiry itself decides nothing)', async () => {
    const { order } = await checkoutOrder(w);
    const o = (await createOrder(w, order)).json();
    await claimOrder(w, o.id);
    expect((await w.call(w.partner, 'POST', `/v1/orders/${o.id}/cancel`, { reason: 'guest_request', comment: '' })).statusCode).toBe(202);
    w.clock.advance(121_000);
    try {
      await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 });
      expect((await orderRow(o.id)).state).toBe('claimed');
      expect(eventsOf(o.id).filter((e) => e === 'order.cancel_result')).toHaveLength(0);
      await w.call(w.pos['1'], 'POST', '/pos/v1/cancellations/claim', {});
      await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/cancel-result`, { result: 'cancelled' });
    } finally {
      w.clock.advance(-121_000);
    }
    expect((await orderRow(o.id)).state).toBe('cancelled');
    expect(eventsOf(o.id).filter((e) => e === 'order.cancel_result')).toHaveLength(1);
  });
});

describe('defect 7: zone pricing only with a delivery-fee product', () => {
  it('the operator refuses zone pricing without a fee product; the database refuses it too', async () => {
    await w.operator.createTenant('t-fee', 'No fee product');
    const settings = async () => (await w.db.query<{ zone_pricing: boolean }>(`SELECT zone_pricing FROM tenants WHERE id = 't-fee'`))[0];
    expect(await settings()).toEqual({ zone_pricing: false }); // the new default
    await expect(w.operator.updateSettings('t-fee', { zonePricing: true })).rejects.toThrow(OperatorError);
    await expect(new TenantsRepo(w.db).updateSettings('t-fee', { zonePricing: true })).rejects.toThrow(/tenants_zone_pricing_needs_fee_product/);
    await w.operator.updateSettings('t-fee', { zonePricing: true, deliveryFeeProductId: 'fee-1' });
    expect(await settings()).toEqual({ zone_pricing: true });
    await expect(w.operator.updateSettings('t-fee', { deliveryFeeProductId: null })).rejects.toThrow(/delivery-fee product/);
  });
});

describe('defect 9: amounts beyond the documented maximum are 400 in calculation and order creation', () => {
  it('quantity 999999.999 of a 590 ₽ item', async () => {
    const cart = { pointId: '1', deliveryType: 'pickup', items: [{ id: MARGHERITA, quantity: '999999.999' }] };
    const calc = await w.call(w.partner, 'POST', '/v1/checkout/calculate', cart);
    expect(calc.statusCode).toBe(400);
    expect(calc.json()).toEqual({ error: 'invalid_request' });
    const { order } = await checkoutOrder(w);
    const big = {
      ...order,
      items: [{ externalProductId: MARGHERITA, quantity: '999999.999', price: { amountMinor: 59000, currency: 'RUB' } }],
      total: { amountMinor: 58999999941, currency: 'RUB' },
    };
    const r = await createOrder(w, big);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ error: 'invalid_request' });
    expect(await w.db.query('SELECT 1 FROM orders WHERE external_order_id = $1', [order.externalOrderId])).toHaveLength(0);
  });

  it('a Money amount above 2147483647 kopecks', async () => {
    const { order } = await checkoutOrder(w);
    const r = await createOrder(w, { ...order, payment: { ...(order.payment as object), amountMinor: 2 ** 31 } });
    expect(r.statusCode).toBe(400);
  });
});
