import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BAG, GIFT, MARGHERITA, makeWorld, sampleMenu, type World } from './harness.js';
import { checkoutOrder, createOrder, PHONE } from './order-factory.js';

let w: World;
beforeAll(async () => {
  w = await makeWorld({ loyaltyRequestsPerMinute: 100000 });
  for (const p of ['1', '2']) {
    await w.call(w.pos[p], 'POST', '/pos/v1/menu', sampleMenu());
    await w.call(w.pos[p], 'POST', '/pos/v1/heartbeat', {});
  }
  await w.call(w.pos['1'], 'POST', '/pos/v1/streets', { streets: [{ name: 'Тверская улица', city: 'Москва' }] });
  await w.call(w.pos['1'], 'POST', '/pos/v1/product-mappings', { products: [{ externalProductId: 'site-1', productId: MARGHERITA, kind: 'dish' }] });
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});
beforeEach(async () => {
  await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [] });
});

const legs = (externalOrderId: string) =>
  w.db.query<{ kind: string; state: string; amount_minor: number }>(
    `SELECT kind, state, amount_minor FROM loyalty_legs WHERE external_order_id = $1 ORDER BY kind`,
    [externalOrderId],
  );
const orderCount = async (externalOrderId: string) =>
  (await w.db.query(`SELECT 1 FROM orders WHERE external_order_id = $1`, [externalOrderId])).length;

describe('POST /v1/orders: creation and idempotency (rule 1)', () => {
  it('201 with the Order view, then 200 with the same order for the same body', async () => {
    const { order } = await checkoutOrder(w);
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(201);
    const v = r.json();
    expect(v).toMatchObject({
      externalOrderId: order.externalOrderId,
      source: 'website',
      state: 'queued',
      cancelState: 'none',
      posOrderId: null,
      deliveryStatus: null,
    });
    expect(v.route).toMatchObject({
      tenantId: 't1',
      source: 'website',
      externalPointId: '1',
      orderTypeId: 'ot-1',
      operatorUserId: 'op-1',
      originName: 'website',
    });
    expect(v.payloadSha256).toMatch(/^[0-9a-f]{64}$/);
    const again = await createOrder(w, order);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(v.id);
  });

  it('key order, whitespace and the six server-owned fields do not change the body; anything else is 409', async () => {
    const { order } = await checkoutOrder(w);
    const first = (await createOrder(w, order)).json();
    const reordered = Object.fromEntries(Object.entries(order).reverse());
    const withOwned = {
      ...reordered,
      appliedDiscounts: [1],
      mappedDiscounts: 'x',
      giftLines: [],
      deliveryFeeMinor: 5,
      deliveryFeeProductId: 'p',
      payment: { ...(order.payment as object), code: 'HACK' },
    };
    const pretty = JSON.stringify(withOwned, null, 2);
    const r = await createOrder(w, pretty);
    expect(r.statusCode).toBe(200);
    expect(r.json().id).toBe(first.id);
    const changed = await createOrder(w, { ...order, comment: 'другой' });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toEqual({ error: 'idempotency_conflict' });
  });

  it('50 concurrent identical requests create exactly one order, all 200/201 with the same id', async () => {
    const { order } = await checkoutOrder(w);
    const rs = await Promise.all(Array.from({ length: 50 }, () => createOrder(w, order)));
    expect(rs.map((r) => r.statusCode).every((s) => s === 200 || s === 201)).toBe(true);
    expect(rs.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(new Set(rs.map((r) => r.json().id)).size).toBe(1);
    expect(await orderCount(order.externalOrderId as string)).toBe(1);
  });

  it('a retry of a created_verified order returns it without a new price check', async () => {
    const { order } = await checkoutOrder(w);
    const v = (await createOrder(w, order)).json();
    await w.db.query(`UPDATE orders SET state = 'created_verified' WHERE id = $1`, [v.id]);
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [{ id: MARGHERITA, balance: 0 }] });
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(200);
    expect(r.json().state).toBe('created_verified');
  });
});

describe('field validation (Order request table) → 400 invalid_request, nothing stored', () => {
  const cases: [string, (o: Record<string, unknown>) => Record<string, unknown>][] = [
    ['schemaVersion 2', (o) => ({ ...o, schemaVersion: 2 })],
    ['externalOrderId with a space', (o) => ({ ...o, externalOrderId: 'a b' })],
    ['externalOrderId of 51 characters', (o) => ({ ...o, externalOrderId: 'x'.repeat(51) })],
    ['phone not +7 and 10 digits', (o) => ({ ...o, guest: { name: 'И', phone: '+7999000000' } })],
    ['total not the sum of the lines', (o) => ({ ...o, total: { amountMinor: 1, currency: 'RUB' } })],
    ['currency not RUB', (o) => ({ ...o, total: { amountMinor: (o.total as { amountMinor: number }).amountMinor, currency: 'USD' } })],
    ['quantity zero', (o) => ({ ...o, items: [{ ...(o.items as object[])[0], quantity: '0' }] })],
    ['comment over 500 characters', (o) => ({ ...o, comment: 'к'.repeat(501) })],
    ['unknown field', (o) => ({ ...o, promo: true })],
    ['street missing', (o) => ({ ...o, address: { house: '1' } })],
    ['online without paid', (o) => ({ ...o, payment: { ...(o.payment as object), method: 'online', paid: false, externalPaymentId: 'p' } })],
    ['online without externalPaymentId', (o) => ({ ...o, payment: { ...(o.payment as object), method: 'online', paid: true } })],
    ['change for card', (o) => ({ ...o, payment: { ...(o.payment as object), method: 'card_on_delivery', change: { from: 500000 } } })],
    ['checkout order without calculationId', (o) => ({ ...o, calculationId: undefined })],
  ];
  for (const [name, mutate] of cases) {
    it(name, async () => {
      const { order } = await checkoutOrder(w);
      const r = await createOrder(w, JSON.parse(JSON.stringify(mutate(order))));
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual({ error: 'invalid_request' });
      expect(await w.db.query('SELECT 1 FROM orders WHERE external_order_id = $1', [order.externalOrderId])).toHaveLength(0);
    });
  }
  it('accepts a 500-character comment and sends the first 250 to the POS', async () => {
    const { order } = await checkoutOrder(w);
    const r = await createOrder(w, { ...order, comment: 'а'.repeat(250) + 'б'.repeat(250) });
    expect(r.statusCode).toBe(201);
    const [row] = await w.db.query<{ pos_payload: { comment: string } }>('SELECT pos_payload FROM orders WHERE id = $1', [r.json().id]);
    expect(row.pos_payload.comment).toBe('а'.repeat(250));
  });
});

describe('scope and routes', () => {
  it('403 for another source or a point outside the key; 422 route_mapping_not_found without an active route', async () => {
    const { order } = await checkoutOrder(w);
    expect((await createOrder(w, { ...order, source: 'mobile' })).statusCode).toBe(403);
    const narrow = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['2'] });
    expect((await w.call(narrow, 'POST', '/v1/orders', order)).statusCode).toBe(403);
    for (const p of ['3', '4']) {
      const r = await createOrder(w, { ...order, externalPointId: p });
      expect(r.statusCode, p).toBe(422);
      expect(r.json()).toEqual({ error: 'route_mapping_not_found' });
    }
  });
});

describe('re-verification (rules 2-5) → 409 price_changed with a fresh calculation', () => {
  async function expectChanged(order: Record<string, unknown>) {
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('price_changed');
    expect(r.json().calculation).toMatchObject({ pointId: '1', total: { currency: 'RUB' } });
    expect(r.json().calculation.calculationId).toBeUndefined();
    expect(await orderCount(order.externalOrderId as string)).toBe(0);
  }
  it('forged or foreign token', async () => {
    const { order } = await checkoutOrder(w);
    const parts = (order.calculationId as string).split('.');
    await expectChanged({ ...order, calculationId: `${parts[0]}.${parts[1]}.${'A'.repeat(parts[2].length)}` });
  });
  it('expired after 15 minutes', async () => {
    const { order } = await checkoutOrder(w);
    w.clock.advance(15 * 60_000 + 1000);
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    await expectChanged(order);
  });
  it('deliveryType, coupon, bonus, certificate or phone differ from the calculation (location does not matter)', async () => {
    const { order } = await checkoutOrder(w);
    await expectChanged({ ...order, coupon: 'WELCOME200' });
    await expectChanged({ ...order, bonusToSpend: { amountMinor: 100, currency: 'RUB' } });
    await expectChanged({ ...order, guest: { name: 'И', phone: '+79990000002' } });
    await expectChanged({ ...order, certificate: { serial: 'CERT-1000', amountMinor: 100 } });
    const moved = await createOrder(w, { ...order, location: { lat: 55.1, lon: 37.1 } });
    expect(moved.statusCode).toBe(201);
  });
  it('payment.amountMinor differs from the total (rule 2)', async () => {
    const { order } = await checkoutOrder(w);
    await expectChanged({ ...order, payment: { ...(order.payment as object), amountMinor: 1 } });
  });
  it('a line price differs from the catalog, or the catalog price changed after the calculation', async () => {
    const { order } = await checkoutOrder(w);
    const items = order.items as { price: { amountMinor: number }; quantity: string }[];
    const cheaper = [{ ...items[0], price: { amountMinor: 100, currency: 'RUB' } }];
    await expectChanged({ ...order, items: cheaper, total: { amountMinor: 100, currency: 'RUB' } });
    const m = sampleMenu();
    m.items[0].priceMinor = 60000;
    await w.call(w.pos['1'], 'POST', '/pos/v1/menu', m);
    await expectChanged(order);
    await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
  });
  it('an item entered the stop-list after the calculation (rule 11)', async () => {
    const { order } = await checkoutOrder(w);
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [{ id: MARGHERITA, balance: 0 }] });
    await expectChanged(order);
  });
  it('an unknown or hidden item', async () => {
    const { order } = await checkoutOrder(w);
    const items = [{ externalProductId: BAG, quantity: '1', price: { amountMinor: 1000, currency: 'RUB' } }];
    await expectChanged({ ...order, items, total: { amountMinor: 1000, currency: 'RUB' } });
  });
  it('422 product_not_orderable for a gift item ordered directly (rule 5)', async () => {
    const { order } = await checkoutOrder(w);
    const items = [{ externalProductId: GIFT, quantity: '1', price: { amountMinor: 0, currency: 'RUB' } }];
    const r = await createOrder(w, { ...order, items, total: { amountMinor: 0, currency: 'RUB' } });
    expect(r.statusCode).toBe(422);
    expect(r.json()).toEqual({ error: 'product_not_orderable' });
  });
});

describe('legacy orders (no payment)', () => {
  const legacy = (externalProductId: string, id: string) => ({
    schemaVersion: 1,
    source: 'website',
    externalOrderId: id,
    externalPointId: '1',
    guest: { name: 'Пётр', phone: PHONE },
    address: { street: 'Тверская улица', house: '2' },
    items: [{ externalProductId, quantity: '2', price: { amountMinor: 50000, currency: 'RUB' } }],
    total: { amountMinor: 100000, currency: 'RUB' },
    deliveryType: 'courier',
  });
  it('maps partner product ids to POS products; prices and payment are not sent to the POS', async () => {
    const r = await createOrder(w, legacy('site-1', 'legacy-1'));
    expect(r.statusCode).toBe(201);
    const [row] = await w.db.query<{ pos_payload: { items: unknown[]; payments: unknown[]; kind: string } }>(
      'SELECT pos_payload FROM orders WHERE id = $1',
      [r.json().id],
    );
    expect(row.pos_payload).toMatchObject({
      kind: 'legacy',
      items: [{ productId: MARGHERITA, amount: '2', priceMinor: null, sumMinor: null }],
      payments: [],
    });
  });
  it('422 product_mapping_not_found for an unmapped product', async () => {
    const r = await createOrder(w, legacy('site-404', 'legacy-2'));
    expect(r.statusCode).toBe(422);
    expect(r.json()).toEqual({ error: 'product_mapping_not_found' });
  });
});

describe('loyalty holds (rule 8, hold legs)', () => {
  it('coupon and bonus are held before the order exists; POS payload satisfies the payment invariant (rule 9)', async () => {
    const { order, calc } = await checkoutOrder(w, {
      items: [{ id: MARGHERITA, quantity: '3' }],
      coupon: 'WELCOME200',
      bonus: 30000,
      method: 'online',
    });
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(201);
    expect(await legs(order.externalOrderId as string)).toEqual([
      { kind: 'bonus', state: 'held', amount_minor: 30000 },
      { kind: 'coupon', state: 'held', amount_minor: 20000 },
    ]);
    const [row] = await w.db.query<{
      pos_payload: {
        payments: { paymentTypeCode: string; sumMinor: number }[];
        discounts: { sumMinor: number }[];
        items: { sumMinor: number }[];
        giftLines: unknown[];
      };
    }>('SELECT pos_payload FROM orders WHERE id = $1', [r.json().id]);
    const p = row.pos_payload;
    expect(p.payments).toEqual([
      expect.objectContaining({ paymentTypeCode: 'ECARD', sumMinor: calc.total.amountMinor, isProcessedExternally: true }),
      expect.objectContaining({ paymentTypeCode: 'BONUS', sumMinor: 30000 }),
    ]);
    const goods = p.items.reduce((s, i) => s + i.sumMinor, 0);
    const disc = p.discounts.reduce((s, d) => s + d.sumMinor, 0);
    expect(goods - disc).toBe(p.payments.reduce((s, x) => s + x.sumMinor, 0));
    expect(p.giftLines).toEqual([{ productId: GIFT, amount: '1', discountTypeId: 'pos-disc-gift' }]);
  });

  it('422 loyalty_rejected when a hold fails: nothing created, the sibling leg released at once; the retry holds both', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200', bonus: 100 });
    const couponHolds = () => w.loyalty.calls.filter((c) => c.method === 'hold' && (c.args as { kind: string }).kind === 'coupon').length;
    const before = couponHolds();
    // first leg (coupon) succeeds, second (bonus) is rejected
    let calls = 0;
    const original = w.loyalty.hold.bind(w.loyalty);
    w.loyalty.hold = async (req, o) => {
      if (++calls === 2) {
        w.loyalty.hold = original;
        w.loyalty.failNext('hold', 1, 'rejected');
      }
      return original(req, o);
    };
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(422);
    expect(r.json()).toEqual({ error: 'loyalty_rejected' });
    expect(await orderCount(order.externalOrderId as string)).toBe(0);
    expect(await legs(order.externalOrderId as string)).toEqual([
      { kind: 'bonus', state: 'failed', amount_minor: 100 },
      { kind: 'coupon', state: 'released', amount_minor: 20000 },
    ]);
    const retry = await createOrder(w, order);
    expect(retry.statusCode).toBe(201);
    expect(couponHolds()).toBe(before + 2);
    expect((await legs(order.externalOrderId as string)).map((l) => l.state)).toEqual(['held', 'held']);
  });

  it('409 hold_in_progress while a hold of the same order is still running', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    const gate = w.loyalty.gate('hold');
    const holds = w.loyalty.count('hold');
    const first = createOrder(w, order);
    // the first request is inside the loyalty call (the fake logs the call before waiting at the gate)
    for (let i = 0; i < 100_000 && w.loyalty.count('hold') === holds; i++) await new Promise((r) => setImmediate(r));
    const second = await createOrder(w, order);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ error: 'hold_in_progress' });
    gate.open();
    expect((await first).statusCode).toBe(201);
  });

  it('422 loyalty_unmapped before any hold for a discount without a POS discount', async () => {
    const holds = w.loyalty.count('hold');
    const { order } = await checkoutOrder(w, { coupon: 'UNMAPPED50' });
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(422);
    expect(r.json()).toEqual({ error: 'loyalty_unmapped' });
    expect(w.loyalty.count('hold')).toBe(holds);
  });

  it('503 loyalty_unavailable for coupon or bonus while the loyalty service does not answer; nothing created', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    w.loyalty.failNext('calculate', 1, 'unavailable');
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ error: 'loyalty_unavailable' });
    expect(await orderCount(order.externalOrderId as string)).toBe(0);
  });

  it('a hold whose outcome is unknown (timeout after the service committed) is not held twice on retry', async () => {
    const { order } = await checkoutOrder(w, { coupon: 'WELCOME200' });
    w.loyalty.failAfter('hold', 1, 'unavailable');
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(503);
    const retry = await createOrder(w, order);
    expect(retry.statusCode).toBe(201);
    const holdKeys = w.loyalty.calls
      .filter((c) => c.method === 'hold')
      .slice(-2)
      .map((c) => (c.args as { idempotencyKey: string }).idempotencyKey);
    expect(holdKeys[0]).toBe(holdKeys[1]);
  });

  it('a certificate is held too and pays part of the order', async () => {
    const { order, calc } = await checkoutOrder(w, { certificate: { serial: 'CERT-1000', amountMinor: 20000 } });
    const r = await createOrder(w, order);
    expect(r.statusCode).toBe(201);
    expect(calc.certificate).toEqual({ status: 'available', requestedMinor: 20000, spendMinor: 20000 });
    expect(await legs(order.externalOrderId as string)).toEqual([{ kind: 'certificate', state: 'held', amount_minor: 20000 }]);
    const [row] = await w.db.query<{ request: Record<string, unknown> }>('SELECT request FROM orders WHERE id = $1', [r.json().id]);
    expect(JSON.stringify(r.json())).not.toContain('CERT-1000');
    expect(row.request).toBeDefined();
  });
});

describe('order lookups', () => {
  it('GET /v1/orders?externalOrderId finds the caller’s order; 404 when absent or outside the key', async () => {
    const { order } = await checkoutOrder(w);
    const v = (await createOrder(w, order)).json();
    const r = await w.call(w.partner, 'GET', `/v1/orders?externalOrderId=${order.externalOrderId}`);
    expect(r.json()).toEqual(v);
    expect((await w.call(w.partner, 'GET', '/v1/orders?externalOrderId=nope')).statusCode).toBe(404);
    const narrow = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['2'] });
    expect((await w.call(narrow, 'GET', `/v1/orders?externalOrderId=${order.externalOrderId}`)).statusCode).toBe(404);
  });
  it('GET /v1/orders/{id}?source: 200, 403 foreign source, 400 invalid UUID, 404 unknown', async () => {
    const { order } = await checkoutOrder(w);
    const v = (await createOrder(w, order)).json();
    expect((await w.call(w.partner, 'GET', `/v1/orders/${v.id}?source=website`)).json()).toEqual(v);
    expect((await w.call(w.partner, 'GET', `/v1/orders/${v.id}?source=mobile`)).statusCode).toBe(403);
    expect((await w.call(w.partner, 'GET', `/v1/orders/not-a-uuid?source=website`)).statusCode).toBe(400);
    expect((await w.call(w.partner, 'GET', `/v1/orders/00000000-0000-4000-8000-000000000000?source=website`)).statusCode).toBe(404);
  });
});
