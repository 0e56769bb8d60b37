import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OrderSupportService } from '../src/orders/order-support.js';
import { SETTLE_MAX_ATTEMPTS } from '../src/holds/loyalty-holds.js';
import { TenantsRepo } from '../src/tenants/tenants.repo.js';
import { throwAt } from './support/crash-points.js';
import { CAPPUCCINO, MARGHERITA, makeWorld, ORG, sampleMenu, squareZone, TG, type World } from './harness.js';
import { checkoutOrder, claimOrder, createOrder, legsOf, reportState } from './order-factory.js';

// Regression tests of the hold and cancellation rules (docs/loyalty.md); each failed on the code before its fix.
const crash = throwAt([]);
let w: World;
let support: OrderSupportService;
const AT = { lat: 55.765, lon: 37.615 };
beforeAll(async () => {
  w = await makeWorld({ loyaltyRequestsPerMinute: 1_000_000, crash });
  await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
  await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
  await w.call(w.pos['1'], 'POST', '/pos/v1/streets', { streets: [{ name: 'Тверская улица', city: 'Москва' }] });
  support = new OrderSupportService({ db: w.db, clock: w.clock, events: w.events, holds: w.services.holds });
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});
beforeEach(() => {
  crash.armed.clear();
  w.loyalty.clearScripts();
});

type Row = Record<string, any>;
const orderRow = async (id: string) => (await w.db.query<Row>('SELECT * FROM orders WHERE id = $1', [id]))[0];
const legRows = (ext: string) => w.db.query<Row>('SELECT * FROM loyalty_legs WHERE external_order_id = $1 ORDER BY kind, created_at', [ext]);
const cancel = (id: string) => w.call(w.partner, 'POST', `/v1/orders/${id}/cancel`, { reason: 'guest_request', comment: '' });
const handOut = async () => (await w.call(w.pos['1'], 'POST', '/pos/v1/cancellations/claim', {})).json().cancellations as Row[];
const cancelResult = (id: string, result: 'cancelled' | 'rejected', detail?: string) =>
  w.call(w.pos['1'], 'POST', `/pos/v1/orders/${id}/cancel-result`, { result, ...(detail ? { detail } : {}) });
const sweep = (minutes: number) => {
  w.clock.advance(minutes * 60_000);
  return w.services.sweeper.runOnce();
};
const holdStatus = (holdId: string) => w.loyalty.engine.holds.list().find((h) => h.id === holdId)?.status;

/** A coupon-only order (coupons may be cancelled through the API; bonus ones not), created and claimed. */
async function couponOrder(ext?: string) {
  const { order } = await checkoutOrder(w, { coupon: 'WELCOME200', items: [{ id: MARGHERITA, quantity: '2' }], externalOrderId: ext });
  const o = (await createOrder(w, order)).json();
  const { claimId } = await claimOrder(w, o.id);
  return { order, id: o.id as string, claimId };
}

describe('defect 1: a cancellation executed after verification never leaves the coupon spent on a cancelled order', () => {
  it('partner cancels at create_sending (202) → POS verifies → POS cancels → manual_review with the coupon flagged for a refund', async () => {
    const { order, id, claimId } = await couponOrder();
    await reportState(w, id, claimId, 'create_sending');
    expect((await cancel(id)).statusCode).toBe(202);
    expect((await reportState(w, id, claimId, 'created_verified', { posOrderId: `pos-${id}` })).statusCode).toBe(200);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:confirmed']);
    expect((await handOut()).map((c) => c.orderId)).toContain(id);
    const r = await cancelResult(id, 'cancelled');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ state: 'manual_review', cancelState: 'done' });
    const [leg] = await legRows(order.externalOrderId as string);
    expect({ state: leg.state, refund: leg.refund_state }).toEqual({ state: 'confirmed', refund: 'required' });
    expect((await support.refunds()).map((x) => x.legId)).toContain(leg.id);
    expect((await support.show(id)).legs).toEqual([expect.objectContaining({ state: 'confirmed', refund: 'required' })]);
    // a repeat of the POS's result is answered without change; a person records the decision
    expect((await cancelResult(id, 'cancelled')).statusCode).toBe(200);
    await support.refundDone(leg.id, 'coupon WELCOME200 given back by hand');
    expect((await support.refunds()).map((x) => x.legId)).not.toContain(leg.id);
    const text = (await w.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toContain('delivery_loyalty_refunds_required 0');
  });

  it('a partner cancel of a created_verified coupon order is refused (409 cancel_rejected, sdk_error), not handed to the POS', async () => {
    const { id, claimId } = await couponOrder();
    await reportState(w, id, claimId, 'created_verified', { posOrderId: `pos-${id}` });
    const r = await cancel(id);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ error: 'cancel_rejected' });
    expect(await orderRow(id)).toMatchObject({ state: 'created_verified', cancel_state: 'rejected', cancel_detail: 'sdk_error' });
    expect((await handOut()).map((c) => c.orderId)).not.toContain(id);
  });

  it('a sweeper-made request already handed to the POS is not withdrawn on verification; the POS result is accepted (never 409)', async () => {
    const { order, id, claimId } = await couponOrder();
    await reportState(w, id, claimId, 'create_sending');
    const rep = await sweep(31);
    expect(rep.cancelRequested).toBeGreaterThanOrEqual(1);
    expect((await orderRow(id)).cancel_requested_by).toBe('hold_timeout');
    expect((await handOut()).map((c) => c.orderId)).toContain(id); // the POS has it now
    expect((await reportState(w, id, claimId, 'created_verified', { posOrderId: `pos-${id}` })).statusCode).toBe(200);
    expect(await orderRow(id)).toMatchObject({ state: 'created_verified', cancel_state: 'requested' });
    const r = await cancelResult(id, 'cancelled');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ state: 'manual_review', cancelState: 'done' });
    expect((await legRows(order.externalOrderId as string)).map((l) => `${l.state}:${l.refund_state}`)).toEqual(['confirmed:required']);
  });
});

describe('defect 2: legs that wait do not starve the held work list', () => {
  it('with 3,000 waiting legs a new leg is settled in the next sweep, and later sweeps leave the waiting legs alone', async () => {
    // 3,000 held legs older than everything else, of orders that wait for a person or the POS
    const old = new Date(w.clock.now().getTime() - 2 * 3600_000).toISOString();
    await w.db.query(
      `WITH o AS (
         INSERT INTO orders (id, tenant_id, source, external_order_id, point_id, organization_id, terminal_group_id, kind, state,
           payload_sha256, request, pos_payload, route, cancel_state, created_at, updated_at)
         SELECT gen_random_uuid(), 't1', 'website', 'wait-' || i, '1', $1, $2, 'checkout',
                (ARRAY['manual_review', 'prepared', 'reconciliation_required'])[1 + i % 3], 'h', '{}', '{}', '{}',
                (ARRAY['none', 'requested', 'rejected'])[1 + i % 3], $3, $3
           FROM generate_series(1, 3000) AS i RETURNING id, external_order_id)
       INSERT INTO loyalty_legs (id, tenant_id, source, external_order_id, payload_sha256, kind, organization_id, amount_minor, state,
         hold_id, order_id, created_at, updated_at)
       SELECT gen_random_uuid(), 't1', 'website', o.external_order_id, 'h', 'coupon', $1, 100, 'held', 'no-hold', o.id, $3, $3 FROM o`,
      [ORG, TG(1), old],
    );
    try {
      // a new leg that needs the sweeper: its order was verified while the loyalty service did not answer
      const { order, id, claimId } = await couponOrder();
      w.loyalty.failNext('confirm', 1, 'unavailable');
      await reportState(w, id, claimId, 'created_verified', { posOrderId: `pos-${id}` });
      expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:held']);
      const rep = await sweep(2);
      expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:confirmed']);
      expect(rep.heldWaiting).toBeGreaterThanOrEqual(3000);
      const next = await sweep(2);
      expect(next.heldLooked + next.heldWaiting).toBeLessThan(10); // the waiting legs are not in the list any more
      const waiting = await w.db.query<Row>(
        `SELECT count(*)::int AS n FROM loyalty_legs WHERE external_order_id LIKE 'wait-%' AND state = 'held' AND waits_for_order`,
      );
      expect(Number(waiting[0].n)).toBe(3000); // none acted on (their holds do not exist: a loyalty call would have failed them)
    } finally {
      await w.db.query(`DELETE FROM loyalty_legs WHERE external_order_id LIKE 'wait-%'`);
      await w.db.query(`DELETE FROM orders WHERE external_order_id LIKE 'wait-%'`);
    }
  });

  it('a waiting leg comes back when its order moves (the POS report’s own settlement died with the process)', async () => {
    const { order, id, claimId } = await couponOrder();
    await reportState(w, id, claimId, 'prepared');
    await sweep(31); // the 30-minute rule: cancellation requested
    await sweep(2); // nothing to do until the order moves: the leg waits
    expect((await legRows(order.externalOrderId as string))[0].waits_for_order).toBe(true);
    crash.armed.add('report.after_commit');
    expect((await reportState(w, id, claimId, 'rejected_final')).statusCode).toBe(500);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:held']);
    await sweep(2);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:released']);
  });
});

describe('defect 3: accruals are never dropped; operators see and retry them', () => {
  async function delivered(): Promise<string> {
    const { order } = await checkoutOrder(w);
    const o = (await createOrder(w, order)).json();
    const c = await claimOrder(w, o.id);
    await reportState(w, o.id, c.claimId, 'created_verified', { posOrderId: `p-${o.id}` });
    await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/delivery-status`, { status: 'Delivered' });
    return o.id;
  }

  it('loyalty turned off for a minute: the accrual waits and is done when loyalty is back on', async () => {
    const id = await delivered();
    await new TenantsRepo(w.db).updateSettings('t1', { loyaltyEnabled: false });
    try {
      await sweep(1);
      expect((await orderRow(id)).accrual_state).toBe('pending');
    } finally {
      await new TenantsRepo(w.db).updateSettings('t1', { loyaltyEnabled: true });
    }
    await sweep(1);
    expect((await orderRow(id)).accrual_state).toBe('done');
  });

  it('a gauge counts pending accruals by age; a failed accrual can be queued again', async () => {
    await new TenantsRepo(w.db).updateSettings('t1', { loyaltyEnabled: false });
    let id: string;
    try {
      id = await delivered();
      w.clock.advance(2 * 3600_000);
      const text = (await w.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(text).toMatch(/delivery_loyalty_accruals_pending\{age="1h_1d"\} [1-9]/);
      expect((await support.accruals('pending')).map((a) => a.orderId)).toContain(id);
    } finally {
      await new TenantsRepo(w.db).updateSettings('t1', { loyaltyEnabled: true });
    }
    w.loyalty.failNext('getAccrual', 1, 'rejected');
    await sweep(1);
    expect((await orderRow(id)).accrual_state).toBe('failed');
    expect((await support.accruals('failed')).map((a) => a.orderId)).toContain(id);
    expect(await support.retryAccrual(id)).toEqual({ orderId: id, accrual: 'pending' });
    await sweep(1);
    expect((await orderRow(id)).accrual_state).toBe('done');
  });
});

describe('defect 4: the corrected body after a 409 price_changed gets the loyalty the 409 promised', () => {
  it('coupon and whole bonus held by the superseded body are released for the body with the newer calculation', async () => {
    const ext = `corrected-${Date.now()}`;
    const cart = { coupon: 'ONCE15', bonus: 50000, items: [{ id: MARGHERITA, quantity: '2' }], externalOrderId: ext };
    const first = await checkoutOrder(w, cart);
    crash.armed.add('hold.after_record.bonus');
    expect((await createOrder(w, first.order)).statusCode).toBe(500); // coupon and bonus held; the order was never written
    const menu = sampleMenu();
    menu.items[0].priceMinor = 61000;
    await w.call(w.pos['1'], 'POST', '/pos/v1/menu', menu);
    try {
      const refused = await createOrder(w, first.order);
      expect(refused.statusCode).toBe(409);
      const promised = refused.json().calculation;
      expect({ coupon: promised.coupon.status, bonus: promised.bonus.spend.amountMinor }).toEqual({ coupon: 'applied', bonus: 50000 });
      w.clock.advance(5_000); // the partner recalculates and corrects the order
      let created: Row | null = null;
      for (let i = 0; i < 3 && !created; i++) {
        const next = await checkoutOrder(w, cart);
        const r = await createOrder(w, next.order);
        if (r.statusCode === 201) created = r.json();
        else expect(r.json().error).toBe('price_changed');
        w.clock.advance(1_000);
      }
      expect(created).not.toBeNull();
      const payload = (await orderRow(created!.id)).pos_payload as Row;
      expect(payload.discounts.map((d: Row) => `${d.kind}:${d.discountTypeId}`)).toContain('coupon:pos-disc-once');
      expect(payload.payments.find((p: Row) => p.kind === 'bonus')?.sumMinor).toBe(promised.bonus.spend.amountMinor);
      const legs = await legRows(ext);
      expect(legs.map((l) => `${l.kind}:${l.order_id ? 'order' : 'superseded'}:${l.state}`).sort()).toEqual([
        'bonus:order:held',
        'bonus:superseded:released',
        'coupon:order:held',
        'coupon:superseded:released',
      ]);
      const c = await claimOrder(w, created!.id);
      await reportState(w, created!.id, c.claimId, 'rejected_final'); // gives coupon and bonus back for the tests below
    } finally {
      await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
    }
  });
});

describe('defect 5: a hold is recorded as the loyalty service answered it', () => {
  it('a crashed hold read back as released elsewhere: the retry holds with a new key, the order has a live hold', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200', items: [{ id: MARGHERITA, quantity: '2' }] });
    crash.armed.add('hold.after_call.coupon');
    expect((await createOrder(w, order)).statusCode).toBe(500);
    const [holding] = await legRows(order.externalOrderId as string);
    const h = w.loyalty.engine.holds.getByKey(holding.hold_key)!;
    w.loyalty.engine.holds.cancel({ holdId: h.id, idempotencyKey: 'support-released-it' }); // released elsewhere
    await sweep(3);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:released']);
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(201);
    const [leg] = await legRows(order.externalOrderId as string);
    expect(leg.hold_key).not.toBe(holding.hold_key);
    expect(holdStatus(leg.hold_id)).toBe('held');
    const c = await claimOrder(w, r.json().id);
    await reportState(w, r.json().id, c.claimId, 'created_verified', { posOrderId: `pos-${r.json().id}` });
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:confirmed']);
  });

  it('a failed leg whose key was released meanwhile: the answer `released` is recorded and a new key holds', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200', items: [{ id: MARGHERITA, quantity: '2' }] });
    w.loyalty.failAfter('hold', 1, 'unavailable'); // held at loyalty, the answer lost
    expect((await createOrder(w, order)).statusCode).toBe(503);
    const [failed] = await legRows(order.externalOrderId as string);
    const h = w.loyalty.engine.holds.getByKey(failed.hold_key)!;
    w.loyalty.engine.holds.cancel({ holdId: h.id, idempotencyKey: 'support-released-it-2' });
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(201);
    const [leg] = await legRows(order.externalOrderId as string);
    expect(holdStatus(leg.hold_id)).toBe('held');
    expect(leg.hold_id).not.toBe(h.id);
    const c = await claimOrder(w, r.json().id);
    await reportState(w, r.json().id, c.claimId, 'rejected_final');
  });
});

describe('defect 6: every settlement takes the leg claim; a 429 is not a failed attempt', () => {
  it('two settlements of the same leg at once spend one loyalty write', async () => {
    const { id, claimId } = await couponOrder();
    w.loyalty.failNext('confirm', 1, 'unavailable');
    await reportState(w, id, claimId, 'created_verified', { posOrderId: `pos-${id}` });
    w.clock.advance(2 * 60_000); // the failed confirm's back-off has passed
    const before = w.loyalty.count('confirm');
    const gate = w.loyalty.gate('confirm');
    const first = w.services.holds.settle(id, 'confirm');
    while (w.loyalty.count('confirm') === before) await new Promise((r) => setImmediate(r));
    // another instance, or the sweeper, at the same time: the leg is taken, it spends no write
    const n2 = await w.services.holds.settle(id, 'confirm');
    gate.open();
    expect({ first: await first, second: n2 }).toEqual({ first: 1, second: 0 });
    expect(w.loyalty.count('confirm') - before).toBe(1);
  });

  it('answers 429 on confirm many times over: the leg waits as asked and is never given up for it', async () => {
    const { order, id, claimId } = await couponOrder();
    w.loyalty.failNext('confirm', 1, 'rate_limited');
    await reportState(w, id, claimId, 'created_verified', { posOrderId: `pos-${id}` });
    let [leg] = await legRows(order.externalOrderId as string);
    expect({ state: leg.state, attempts: Number(leg.settle_attempts) }).toEqual({ state: 'held', attempts: 0 });
    expect(new Date(leg.check_after).getTime()).toBe(w.clock.now().getTime() + 60_000); // Retry-After 60 s
    for (let i = 0; i < SETTLE_MAX_ATTEMPTS + 2; i++) {
      w.loyalty.failNext('confirm', 1, 'rate_limited');
      await sweep(1.5);
    }
    [leg] = await legRows(order.externalOrderId as string);
    expect({ state: leg.state, attempts: Number(leg.settle_attempts) }).toEqual({ state: 'held', attempts: 0 });
    await sweep(1.5);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:confirmed']);
  });
});

describe('defect 7: claim expiry while the POS is still creating; delivery statuses of cancelled orders', () => {
  it('a claim expiring with a pending cancellation leaves the order with its POS: the late report is accepted', async () => {
    const { order, id, claimId } = await couponOrder();
    expect((await cancel(id)).statusCode).toBe(202);
    w.clock.advance(121_000);
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 }); // the lease ran out meanwhile
    expect(await orderRow(id)).toMatchObject({ state: 'claimed', cancel_state: 'requested' });
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:held']);
    // the POS was still creating it: its report under the old claim is accepted and the coupon spent with the order
    const r = await reportState(w, id, claimId, 'created_verified', { posOrderId: `pos-${id}` });
    expect(r.statusCode).toBe(200);
    expect(await legsOf(w, order.externalOrderId as string)).toEqual(['coupon:confirmed']);
    // the pending cancellation is the POS's to answer (here: refused, the order stays)
    await handOut();
    expect((await cancelResult(id, 'rejected', 'not_new')).json()).toMatchObject({ state: 'created_verified', cancelState: 'rejected' });
  });

  it('a cancelled order takes only the delivery status Cancelled, and never schedules an accrual', async () => {
    const { id, claimId } = await couponOrder();
    await reportState(w, id, claimId, 'create_sending');
    expect((await cancel(id)).statusCode).toBe(202);
    await handOut();
    expect((await cancelResult(id, 'cancelled')).json()).toMatchObject({ state: 'cancelled' });
    const delivered = await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${id}/delivery-status`, { status: 'Delivered' });
    expect(delivered.statusCode).toBe(409);
    expect((await orderRow(id)).accrual_state).toBe('none');
    expect((await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${id}/delivery-status`, { status: 'Cancelled' })).statusCode).toBe(200);
  });
});

describe('defect 8: small ones', () => {
  it('a POS order path with 36 dashes or 36 hex digits is 400 invalid_request, not 500', async () => {
    const bodies: Record<string, unknown> = {
      state: { claimId: 'c', stableId: 's', state: 'prepared' },
      'delivery-status': { status: 'New' },
      'cancel-result': { result: 'cancelled' },
    };
    for (const bad of ['-'.repeat(36), 'a'.repeat(36), `urn:uuid:${'0'.repeat(27)}`]) {
      for (const tail of Object.keys(bodies)) {
        const r = await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${bad}/${tail}`, bodies[tail]);
        expect({ tail, bad, status: r.statusCode, error: r.json().error }).toEqual({ tail, bad, status: 400, error: 'invalid_request' });
      }
    }
  });

  it('a delivery fee that takes the total above the largest amount is refused by calculate, as order creation would', async () => {
    await w.operator.loadZones('t1', {
      type: 'FeatureCollection',
      features: [squareZone('z-fee', '1', 55.76, 37.61, 0.02, { priority: 1, freeDeliveryFromMinor: null, minOrderMinor: 0 })],
    });
    await new TenantsRepo(w.db).updateSettings('t1', { loyaltyEnabled: false }); // no program discount: the cart stays at its price
    try {
      // 113025 × 190 ₽ = 2 147 475 000 kopecks (under the cap), + the 199 ₽ fee = over it
      const cart = { pointId: '1', deliveryType: 'courier', location: AT, items: [{ id: CAPPUCCINO, quantity: '113025' }] };
      const r = await w.call(w.partner, 'POST', '/v1/checkout/calculate', cart);
      expect({ status: r.statusCode, body: r.json() }).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    } finally {
      await new TenantsRepo(w.db).updateSettings('t1', { loyaltyEnabled: true });
    }
  });
});
