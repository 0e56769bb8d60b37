import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantsRepo } from '../src/tenants/tenants.repo.js';
import { GIFT, MARGHERITA, CAPPUCCINO, makeWorld, sampleMenu, squareZone, type World } from './harness.js';
import { checkoutOrder, createOrder } from './order-factory.js';

/** Rules found uncovered in review: each test breaks one thing. */
let w: World;

const AT = { lat: 55.765, lon: 37.615 };

beforeAll(async () => {
  w = await makeWorld({ loyaltyRequestsPerMinute: 100000 });
  for (const p of ['1', '2']) {
    await w.call(w.pos[p], 'POST', '/pos/v1/menu', sampleMenu());
    await w.call(w.pos[p], 'POST', '/pos/v1/heartbeat', {});
  }
  await w.call(w.pos['1'], 'POST', '/pos/v1/streets', {
    streets: [
      { name: 'Тверская улица', city: 'Москва' },
      { name: 'Центральная улица', city: 'Москва' },
      { name: 'Центральная улица', city: 'Зеленоград' },
    ],
  });
  await w.call(w.pos['1'], 'POST', '/pos/v1/product-mappings', { products: [{ externalProductId: 'site-gift', productId: GIFT, kind: 'dish' }] });
  await w.operator.loadZones('t1', {
    type: 'FeatureCollection',
    features: [squareZone('z1', '1', 55.76, 37.61, 0.02, { priority: 1, freeDeliveryFromMinor: 300000 })],
  });
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

const payload = async (id: string) =>
  (await w.db.query<{ pos_payload: Record<string, any> }>('SELECT pos_payload FROM orders WHERE id = $1', [id]))[0].pos_payload;

describe('POST /v1/orders rule 4: minimum and serviceability', () => {
  it('409 price_changed when the minimum order is not met', async () => {
    const { order, calc } = await checkoutOrder(w, { deliveryType: 'courier', location: AT, items: [{ id: CAPPUCCINO, quantity: '1' }] });
    expect(calc.minOrder.met).toBe(false);
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('price_changed');
  });
  it('409 price_changed when courier delivery is not serviceable at the location', async () => {
    const { order } = await checkoutOrder(w, { deliveryType: 'courier', location: { lat: 50, lon: 30 }, items: [{ id: MARGHERITA, quantity: '2' }] });
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(409);
  });
});

describe('rule 3: deliveryType must equal the calculation', () => {
  it('pickup calculation, courier order → 409', async () => {
    const { order } = await checkoutOrder(w, { items: [{ id: MARGHERITA, quantity: '2' }] });
    const r = await createOrder(w, { ...order, deliveryType: 'courier', location: AT });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('price_changed');
  });
});

describe('rule 9: the order as sent to the POS', () => {
  it('delivery-fee service line when the fee is non-zero and a fee product is configured; cash code and change', async () => {
    const { order, calc } = await checkoutOrder(w, { deliveryType: 'courier', location: AT, items: [{ id: MARGHERITA, quantity: '2' }] });
    expect(calc.deliveryFee.amountMinor).toBe(19900);
    const r = await createOrder(w, { ...order, payment: { ...(order.payment as object), change: { from: 500000 } } });
    expect(r.statusCode).toBe(201);
    const p = await payload(r.json().id);
    expect(p.deliveryFeeLine).toEqual({ productId: 'fee-product-1', sumMinor: 19900 });
    expect(p.payments).toEqual([
      { paymentTypeCode: 'CASH', kind: 'cash', sumMinor: calc.total.amountMinor, isProcessedExternally: false, changeFromMinor: 500000 },
    ]);
    const goods = p.items.reduce((s: number, i: { sumMinor: number }) => s + i.sumMinor, 0);
    expect(goods - p.discounts.reduce((s: number, d: { sumMinor: number }) => s + d.sumMinor, 0) + p.deliveryFeeMinor).toBe(calc.total.amountMinor);
  });
  it('no fee line (and no fee) with zone pricing off and no fee product; card on delivery uses the card code', async () => {
    await new TenantsRepo(w.db).updateSettings('t1', { zonePricing: false, deliveryFeeProductId: null });
    const { order } = await checkoutOrder(w, {
      deliveryType: 'courier',
      location: AT,
      items: [{ id: MARGHERITA, quantity: '2' }],
      method: 'card_on_delivery',
    });
    const r = await createOrder(w, order);
    const p = await payload(r.json().id);
    expect(p.deliveryFeeLine).toBeNull();
    expect(p.deliveryFeeMinor).toBe(0);
    expect(p.payments[0]).toMatchObject({ paymentTypeCode: 'CARD', kind: 'card' });
    await new TenantsRepo(w.db).updateSettings('t1', { deliveryFeeProductId: 'fee-product-1', zonePricing: true });
  });
});

describe('rule 7: street looked up by exact name in the point’s dictionary', () => {
  for (const [street, status] of [
    ['Тверская улица', 'ok'],
    ['Центральная улица', 'ambiguous'],
    ['Нет такой', 'not_found'],
  ] as const) {
    it(`${street} → ${status}`, async () => {
      const { order } = await checkoutOrder(w, { items: [{ id: MARGHERITA, quantity: '2' }] });
      const r = await createOrder(w, { ...order, address: { street, house: '1', city: 'Санкт-Петербург' } });
      expect(r.statusCode).toBe(201);
      expect((await payload(r.json().id)).address.streetStatus).toBe(status);
    });
  }
});

describe('rule 5 for legacy orders', () => {
  it('a mapping to a gift item → 422 product_not_orderable', async () => {
    const r = await createOrder(w, {
      schemaVersion: 1,
      source: 'website',
      externalOrderId: 'legacy-gift',
      externalPointId: '1',
      guest: { name: 'Пётр', phone: '+79990000001' },
      address: { street: 'Тверская улица', house: '2' },
      items: [{ externalProductId: 'site-gift', quantity: '1', price: { amountMinor: 0, currency: 'RUB' } }],
      total: { amountMinor: 0, currency: 'RUB' },
      deliveryType: 'pickup',
    });
    expect(r.statusCode).toBe(422);
    expect(r.json()).toEqual({ error: 'product_not_orderable' });
  });
});

describe('cancellation edge cases', () => {
  const cancel = (id: string) => w.call(w.partner, 'POST', `/v1/orders/${id}/cancel`, { reason: 'guest_request', comment: '' });
  it('a queued online order refused by the API still reaches the POS (the restaurant cancels it there)', async () => {
    const { order } = await checkoutOrder(w, { method: 'online', items: [{ id: MARGHERITA, quantity: '2' }] });
    const o = (await createOrder(w, order)).json();
    expect((await cancel(o.id)).statusCode).toBe(409);
    const claimed = (await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 })).json().orders;
    expect(claimed.map((c: { orderId: string }) => c.orderId)).toContain(o.id);
  });
  it('a cancel requested in creation stays with the POS when the claim expires; its answer executes it', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200', items: [{ id: MARGHERITA, quantity: '2' }] });
    const o = (await createOrder(w, order)).json();
    await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 });
    expect((await cancel(o.id)).statusCode).toBe(202);
    w.clock.advance(121_000);
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 });
    expect((await w.call(w.partner, 'GET', `/v1/orders/${o.id}?source=website`)).json()).toMatchObject({
      state: 'claimed',
      cancelState: 'requested',
    });
    const handed = (await w.call(w.pos['1'], 'POST', '/pos/v1/cancellations/claim', {})).json().cancellations;
    expect(handed.map((c: { orderId: string }) => c.orderId)).toContain(o.id);
    await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/cancel-result`, { result: 'cancelled' });
    const v = (await w.call(w.partner, 'GET', `/v1/orders/${o.id}?source=website`)).json();
    expect(v).toMatchObject({ state: 'cancelled', cancelState: 'done' });
    const legs = await w.db.query<{ state: string }>('SELECT state FROM loyalty_legs WHERE order_id = $1', [o.id]);
    expect(legs.map((l) => l.state)).toEqual(['released']);
  });
  it('a POS cancellation of a delivered order emits order.delivery_status_changed for Cancelled', async () => {
    const { order } = await checkoutOrder(w, { items: [{ id: MARGHERITA, quantity: '2' }] });
    const o = (await createOrder(w, order)).json();
    const c = (await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 }))
      .json()
      .orders.find((x: { orderId: string }) => x.orderId === o.id);
    await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/state`, {
      claimId: c.claimId,
      stableId: o.id,
      state: 'created_verified',
      posOrderId: 'p1',
    });
    await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/delivery-status`, { status: 'New' });
    expect((await cancel(o.id)).statusCode).toBe(202);
    await w.call(w.pos['1'], 'POST', '/pos/v1/cancellations/claim', {});
    await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/cancel-result`, { result: 'cancelled' });
    const types = w.events.events.filter((e) => e.order.id === o.id).map((e) => `${e.type}:${e.order.deliveryStatus}`);
    expect(types).toContain('order.delivery_status_changed:Cancelled');
  });
});

describe('sweeper: stuck release and accrual read-back', () => {
  it('a release that failed on rejected_final is retried by the sweeper', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200', items: [{ id: MARGHERITA, quantity: '2' }] });
    const o = (await createOrder(w, order)).json();
    const c = (await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 }))
      .json()
      .orders.find((x: { orderId: string }) => x.orderId === o.id);
    w.loyalty.failNext('release', 1, 'unavailable');
    await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/state`, { claimId: c.claimId, stableId: o.id, state: 'rejected_final' });
    const state = async () => (await w.db.query<{ state: string }>('SELECT state FROM loyalty_legs WHERE order_id = $1', [o.id]))[0].state;
    expect(await state()).toBe('held');
    w.clock.advance(61_000);
    await w.services.sweeper.runOnce();
    expect(await state()).toBe('released');
  });
  it('an accrual whose outcome was unknown is read back, not accrued twice', async () => {
    const { order } = await checkoutOrder(w, { items: [{ id: MARGHERITA, quantity: '2' }] });
    const o = (await createOrder(w, order)).json();
    const c = (await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 }))
      .json()
      .orders.find((x: { orderId: string }) => x.orderId === o.id);
    await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/state`, {
      claimId: c.claimId,
      stableId: o.id,
      state: 'created_verified',
      posOrderId: 'p2',
    });
    await w.call(w.pos['1'], 'POST', `/pos/v1/orders/${o.id}/delivery-status`, { status: 'Delivered' });
    w.loyalty.failAfter('accrue', 1, 'unavailable');
    await w.services.sweeper.runOnce();
    const accrues = w.loyalty.count('accrue');
    w.clock.advance(61_000); // the failed accrual backs off one minute
    await w.services.sweeper.runOnce();
    expect(w.loyalty.count('accrue')).toBe(accrues);
    expect((await w.db.query<{ accrual_state: string }>('SELECT accrual_state FROM orders WHERE id = $1', [o.id]))[0].accrual_state).toBe('done');
  });
});

describe('reads and health', () => {
  it('delivery zones of a point without an active route → 404', async () => {
    for (const p of ['3', '4']) expect((await w.call(w.partner, 'GET', `/v1/points/${p}/delivery-zones`)).statusCode).toBe(404);
  });
  it('/health/ready answers 503 {status: unavailable} when the database does not answer', async () => {
    const ping = w.db.ping.bind(w.db);
    w.db.ping = async () => {
      throw new Error('connection lost');
    };
    try {
      const r = await w.app.inject({ method: 'GET', url: '/health/ready' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({ status: 'unavailable' });
    } finally {
      w.db.ping = ping;
    }
  });
  it('a partner secret shorter than 32 characters is refused at issuance', async () => {
    await expect(
      w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['1'], apiKey: 'key-12345', apiSecret: 'x'.repeat(31) }),
    ).rejects.toThrow(/at least 32/);
    const ok = await w.operator.issuePartnerCredential({
      tenantId: 't1',
      source: 'website',
      pointIds: ['1'],
      apiKey: 'key-12346',
      apiSecret: 'x'.repeat(32),
    });
    expect(ok.apiKey).toBe('key-12346');
  });
});
