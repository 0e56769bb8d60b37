import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TenantsRepo } from '../src/tenants/tenants.repo.js';
import { BAG, CAPPUCCINO, GIFT, MARGHERITA, makeWorld, sampleMenu, squareZone, type World } from './harness.js';

let w: World;
const PHONE = '+79990000001';

beforeAll(async () => {
  w = await makeWorld();
  await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
  await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
  await w.operator.loadZones('t1', {
    type: 'FeatureCollection',
    features: [squareZone('z1', '1', 55.76, 37.61, 0.02, { priority: 1, freeDeliveryFromMinor: 300000 })],
  });
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});
beforeEach(async () => {
  await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [] });
});

const calc = (body: Record<string, unknown>) => w.call(w.partner, 'POST', '/v1/checkout/calculate', { pointId: '1', ...body });
const RUB = (amountMinor: number) => ({ amountMinor, currency: 'RUB' });

describe('POST /v1/checkout/calculate', () => {
  it('prices from the server menu, exact quantities, and a 15-minute signed calculationId', async () => {
    const r = await calc({
      deliveryType: 'pickup',
      items: [
        { id: MARGHERITA, quantity: '1' },
        { id: CAPPUCCINO, quantity: '1.5' },
      ],
    });
    expect(r.statusCode).toBe(200);
    const b = r.json();
    expect(b.items).toEqual([
      { id: MARGHERITA, name: 'Маргарита', quantity: '1', unitPrice: RUB(59000), lineTotal: RUB(59000), available: true },
      { id: CAPPUCCINO, name: 'Капучино', quantity: '1.5', unitPrice: RUB(19000), lineTotal: RUB(28500), available: true },
    ]);
    expect(b).toMatchObject({
      pointId: '1',
      deliveryType: 'pickup',
      subtotal: RUB(87500),
      programDiscount: RUB(0),
      deliveryFee: RUB(0),
      total: RUB(87500),
      loyaltyUnavailable: false,
    });
    expect(b.coupon).toEqual({ status: 'not_requested', discount: RUB(0) });
    expect(b.bonus).toEqual({ requested: false, maxSpend: RUB(0), spend: RUB(0) });
    expect(decodeProtectedHeader(b.calculationId).alg).toBe('HS256');
    expect(b.expiresAt).toBe(new Date(w.clock.now().getTime() + 15 * 60_000).toISOString());
  });

  it('item warnings: stop_list, unknown_item, hidden_item (hidden and gift items); such lines are not in the subtotal', async () => {
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [{ id: CAPPUCCINO, balance: 0 }] });
    const unknown = '99999999-9999-4999-8999-999999999999';
    const b = (
      await calc({
        deliveryType: 'pickup',
        items: [
          { id: MARGHERITA, quantity: '1' },
          { id: CAPPUCCINO, quantity: '1' },
          { id: unknown, quantity: '1' },
          { id: BAG, quantity: '1' },
          { id: GIFT, quantity: '1' },
        ],
      })
    ).json();
    expect(b.items.map((i: { warning?: string }) => i.warning)).toEqual([undefined, 'stop_list', 'unknown_item', 'hidden_item', 'hidden_item']);
    expect(b.items.map((i: { available: boolean }) => i.available)).toEqual([true, false, false, false, false]);
    expect(b.subtotal).toEqual(RUB(59000));
    expect(b.warnings.length).toBeGreaterThan(0);
  });

  it('automatic program discount, coupon attributed to the coupon, bonus maxSpend/spend; total per rule 1', async () => {
    const b = (
      await calc({
        deliveryType: 'pickup',
        items: [{ id: MARGHERITA, quantity: '3' }],
        guest: { phone: PHONE },
        coupon: 'WELCOME200',
        bonusToSpend: RUB(30000),
      })
    ).json();
    // subtotal 1770 RUB ≥ 1500 → 10 % = 177 RUB program; coupon 200 RUB; bonus up to the 500 RUB balance
    expect(b.subtotal).toEqual(RUB(177000));
    expect(b.programDiscount).toEqual(RUB(17700));
    expect(b.coupon).toEqual({ status: 'applied', discount: RUB(20000) });
    expect(b.bonus).toEqual({ requested: true, maxSpend: RUB(50000), spend: RUB(30000) });
    expect(b.total).toEqual(RUB(177000 - 17700 - 20000 - 30000));
  });

  it('an invalid coupon is reported invalid with no discount', async () => {
    const b = (await calc({ deliveryType: 'pickup', items: [{ id: MARGHERITA, quantity: '1' }], coupon: 'NOPE' })).json();
    expect(b.coupon).toEqual({ status: 'invalid', discount: RUB(0) });
  });

  it('delivery fee, free-delivery threshold and minimum order from the zone; the per-tenant switch zeroes them', async () => {
    const at = { lat: 55.765, lon: 37.615 };
    const small = (await calc({ deliveryType: 'courier', location: at, items: [{ id: CAPPUCCINO, quantity: '1' }] })).json();
    expect(small).toMatchObject({ deliveryFee: RUB(19900), minOrder: { met: false, missing: RUB(100000 - 19000) }, total: RUB(19000 + 19900) });
    const big = (await calc({ deliveryType: 'courier', location: at, items: [{ id: MARGHERITA, quantity: '6' }] })).json();
    expect(big.deliveryFee).toEqual(RUB(0));
    expect(big.minOrder).toEqual({ met: true, missing: RUB(0) });
    await new TenantsRepo(w.db).updateSettings('t1', { zonePricing: false });
    const restricted = (await calc({ deliveryType: 'courier', location: at, items: [{ id: CAPPUCCINO, quantity: '1' }] })).json();
    expect(restricted).toMatchObject({ deliveryFee: RUB(0), minOrder: { met: true, missing: RUB(0) } });
    await new TenantsRepo(w.db).updateSettings('t1', { zonePricing: true });
  });

  it('the fee is not reduced by discounts (rule 1)', async () => {
    const b = (
      await calc({
        deliveryType: 'courier',
        location: { lat: 55.765, lon: 37.615 },
        items: [{ id: CAPPUCCINO, quantity: '1' }],
        coupon: 'WELCOME200',
      })
    ).json();
    expect(b.coupon.discount).toEqual(RUB(19000)); // capped at the goods
    expect(b.total).toEqual(RUB(19900));
  });

  it('loyaltyUnavailable when the loyalty service fails: computed without coupon and bonus', async () => {
    w.loyalty.failNext('calculate', 1, 'unavailable');
    const b = (
      await calc({
        deliveryType: 'pickup',
        items: [{ id: MARGHERITA, quantity: '3' }],
        guest: { phone: PHONE },
        coupon: 'WELCOME200',
        bonusToSpend: RUB(100),
      })
    ).json();
    expect(b).toMatchObject({ loyaltyUnavailable: true, programDiscount: RUB(0), total: RUB(177000) });
    expect(b.coupon.discount).toEqual(RUB(0));
    expect(b.bonus.spend).toEqual(RUB(0));
  });

  it('certificate: availability without spending, reduces the total after everything, serial never in the token', async () => {
    const holdsBefore = w.loyalty.count('hold');
    const b = (
      await calc({ deliveryType: 'pickup', items: [{ id: MARGHERITA, quantity: '1' }], certificate: { serial: 'CERT-1000', amountMinor: 30000 } })
    ).json();
    expect(b.certificate).toEqual({ status: 'available', requestedMinor: 30000, spendMinor: 30000 });
    expect(b.total).toEqual(RUB(59000 - 30000));
    expect(JSON.stringify(decodeJwt(b.calculationId))).not.toContain('CERT-1000');
    expect(JSON.stringify(decodeJwt(b.calculationId))).not.toContain(PHONE);
    expect(w.loyalty.count('hold')).toBe(holdsBefore);
  });

  it('certificate errors: 422 loyalty_rejected when inapplicable, 503 loyalty_unavailable without setup or loyalty', async () => {
    const bad = await calc({ deliveryType: 'pickup', items: [{ id: MARGHERITA, quantity: '1' }], certificate: { serial: 'NOPE', amountMinor: 100 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: 'loyalty_rejected' });
    w.loyalty.failNext('calculate', 1, 'unavailable');
    const down = await calc({
      deliveryType: 'pickup',
      items: [{ id: MARGHERITA, quantity: '1' }],
      certificate: { serial: 'CERT-1000', amountMinor: 100 },
    });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ error: 'loyalty_unavailable' });
    await new TenantsRepo(w.db).updateSettings('t1', { certificatePaymentTypeCode: null });
    const noSetup = await calc({
      deliveryType: 'pickup',
      items: [{ id: MARGHERITA, quantity: '1' }],
      certificate: { serial: 'CERT-1000', amountMinor: 100 },
    });
    expect(noSetup.json()).toEqual({ error: 'loyalty_unavailable' });
    await new TenantsRepo(w.db).updateSettings('t1', { certificatePaymentTypeCode: 'CERT' });
  });

  it('400 for zero, negative or 4-decimal quantities, an empty cart, a bad phone; 403 for a point outside the key', async () => {
    for (const quantity of ['0', '-1', '1.2345', '1e2', 'один']) {
      expect((await calc({ items: [{ id: MARGHERITA, quantity }] })).statusCode, quantity).toBe(400);
    }
    expect((await calc({ items: [] })).statusCode).toBe(400);
    expect((await calc({ items: [{ id: MARGHERITA, quantity: '1' }], guest: { phone: '89990000001' } })).statusCode).toBe(400);
    const narrow = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['2'] });
    const r = await w.call(narrow, 'POST', '/v1/checkout/calculate', { pointId: '1', items: [{ id: MARGHERITA, quantity: '1' }] });
    expect(r.statusCode).toBe(403);
  });

  it('503 checkout_unavailable when the server switch is off', async () => {
    await new TenantsRepo(w.db).updateSettings('t1', { checkoutEnabled: false });
    const r = await calc({ items: [{ id: MARGHERITA, quantity: '1' }] });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ error: 'checkout_unavailable' });
    await new TenantsRepo(w.db).updateSettings('t1', { checkoutEnabled: true });
  });

  it('no side effects: nothing is held or stored', async () => {
    const holds = w.loyalty.count('hold');
    await calc({
      deliveryType: 'pickup',
      items: [{ id: MARGHERITA, quantity: '1' }],
      guest: { phone: PHONE },
      coupon: 'WELCOME200',
      bonusToSpend: RUB(100),
    });
    expect(w.loyalty.count('hold')).toBe(holds);
    expect(await w.db.query('SELECT 1 FROM loyalty_legs')).toHaveLength(0);
    expect(await w.db.query('SELECT 1 FROM orders')).toHaveLength(0);
  });

  it('429 rate_limited with Retry-After: 60 after 30 loyalty requests per minute for one phone', async () => {
    const phone = '+79995550000';
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await calc({ deliveryType: 'pickup', items: [{ id: MARGHERITA, quantity: '1' }], guest: { phone } })).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    const r = await calc({ deliveryType: 'pickup', items: [{ id: MARGHERITA, quantity: '1' }], guest: { phone } });
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBe('60');
    expect(r.json()).toEqual({ error: 'rate_limited' });
  });
});
