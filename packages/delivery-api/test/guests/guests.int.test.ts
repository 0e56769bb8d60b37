import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrdersRepo, type OrderRecord } from '../../src/orders/orders.repo.js';
import { outboxWrite } from '../../src/webhooks/outbox.repo.js';
import { addSource, makeWorld, ORG, squareZone, TG, type Key, type World } from '../harness.js';

let w: World;
let other: Key;
const PHONE = '+79990000001';
/** A guest of the loyalty service with a level and two coupons, one of them expired. */
const GUEST_WITH_LOYALTY = '+79990000011';

/** An order row as order creation writes it, created `minutesAgo` before now. */
async function order(over: {
  source?: string;
  phone?: string | null;
  pointId?: string;
  minutesAgo: number;
  street?: string;
  location?: { lat: number; lon: number };
}) {
  const createdAt = new Date(w.clock.now().getTime() - over.minutesAgo * 60_000);
  const pointId = over.pointId ?? '1';
  const source = over.source ?? 'website';
  const rec = {
    id: randomUUID(),
    tenantId: 't1',
    source,
    externalOrderId: `ext-${randomUUID()}`,
    pointId,
    organizationId: ORG,
    terminalGroupId: TG(Number(pointId)),
    kind: 'legacy',
    state: 'queued',
    payloadSha256: 'x'.repeat(64),
    request: {
      deliveryType: 'courier',
      address: { city: 'Москва', street: over.street ?? 'Тверская улица', house: '1', flat: '5' },
      ...(over.location ? { location: over.location } : {}),
    },
    posPayload: {},
    route: {
      tenantId: 't1',
      source,
      externalPointId: pointId,
      organizationId: ORG,
      terminalGroupId: TG(1),
      orderTypeId: 'ot',
      operatorUserId: 'op',
      originName: source,
    },
    guestPhone: over.phone === undefined ? PHONE : over.phone,
    paymentMethod: null,
    bonusSpendMinor: 0,
    paidMinor: 0,
    createdAt,
    updatedAt: createdAt,
  } as unknown as OrderRecord;
  await new OrdersRepo(w.db).create(rec, [], outboxWrite([]));
  return rec.id;
}

const get = (url: string, key: Key = w.partner) => w.call(key, 'GET', url);

beforeAll(async () => {
  w = await makeWorld({
    loyaltyOverrides: {
      guests: [{ phone: GUEST_WITH_LOYALTY, bonusBalanceMinor: 50000, accrualPercent: 5, category: 'Gold', coupons: ['ONCE15', 'OLD'] }],
    },
  });
  await w.operator.sourceFeatures('t1', 'website', 'guest-api');
  other = await addSource(w, 'other', { pointIds: ['1'], features: 'guest-api' });
  // point 1 sits at (55.76, 37.61): one zone around it
  await w.operator.loadZones('t1', { type: 'FeatureCollection', features: [squareZone('near-1', '1', 55.76, 37.61, 0.05)] });
}, 120_000);
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

describe('guest phone', () => {
  it('answers 400 invalid_phone for a phone that is not +7 and 10 digits after normalisation', async () => {
    for (const bad of ['12345', '+1234567890123', 'abc', '%2B7999000000']) {
      const r = await get(`/v1/guests/${bad}/orders`);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json()).toEqual({ error: 'invalid_phone' });
    }
  });

  it('accepts +7 escaped, and 8… and 7… written numbers', async () => {
    for (const ok of ['%2B79990000009', '+79990000009', '89990000009', '79990000009']) {
      const r = await get(`/v1/guests/${ok}/orders`);
      expect(r.statusCode, ok).toBe(200);
      expect(r.json()).toEqual({ orders: [], nextCursor: null });
    }
  });
});

describe('GET /v1/guests/{phone}/orders', () => {
  it('pages this source’s orders of the phone newest first, stable when orders arrive between pages', async () => {
    const ids: string[] = [];
    for (let i = 5; i >= 1; i--) ids.push(await order({ minutesAgo: i * 10 }));
    await order({ minutesAgo: 3, phone: '+79990000002' }); // another guest
    await order({ minutesAgo: 2, source: 'other' }); // another source
    // ids: oldest first (50 … 10 minutes ago)
    const idsOf = (p: { orders: { id: string }[] }) => p.orders.map((o) => o.id);
    const first = await get(`/v1/guests/${PHONE}/orders?limit=2`);
    expect(first.statusCode).toBe(200);
    const p1 = first.json();
    expect(idsOf(p1)).toEqual([ids[4], ids[3]]);
    // an order arriving now must not shift the next page
    const fresh = await order({ minutesAgo: 0 });
    const p2 = (await get(`/v1/guests/${PHONE}/orders?limit=2&cursor=${p1.nextCursor}`)).json();
    expect(idsOf(p2)).toEqual([ids[2], ids[1]]);
    const p3 = (await get(`/v1/guests/${PHONE}/orders?limit=2&cursor=${p2.nextCursor}`)).json();
    expect(idsOf(p3)).toEqual([ids[0]]);
    expect(p3.nextCursor).toBeNull();
    const again = (await get(`/v1/guests/${PHONE}/orders?limit=1`)).json();
    expect(again.orders[0].id).toBe(fresh);
    expect(again.orders[0].source).toBe('website');
  });

  it('never shows another source’s orders: the other source sees only its own', async () => {
    const r = (await get(`/v1/guests/${PHONE}/orders?limit=100`, other)).json();
    expect(r.orders.length).toBe(1);
    expect(r.orders[0].source).toBe('other');
  });

  it('refuses a forged cursor and a bad limit with 400 invalid_request', async () => {
    expect((await get(`/v1/guests/${PHONE}/orders?cursor=bm9wZQ`)).json()).toEqual({ error: 'invalid_request' });
    expect((await get(`/v1/guests/${PHONE}/orders?limit=0`)).statusCode).toBe(400);
    expect((await get(`/v1/guests/${PHONE}/orders?limit=101`)).statusCode).toBe(400);
  });

  it('stores a keyed hash of the phone for the index, not derivable without the master key', async () => {
    const rows = await w.db.query<{ guest_phone_hash: string }>(
      `SELECT DISTINCT guest_phone_hash FROM orders WHERE guest_phone = $1 AND source = 'website'`,
      [PHONE],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].guest_phone_hash).toMatch(/^[0-9a-f]{64}$/);
    const { createHash } = await import('node:crypto');
    expect(rows[0].guest_phone_hash).not.toBe(createHash('sha256').update(PHONE).digest('hex'));
  });
});

describe('GET /v1/guests/{phone}/addresses', () => {
  it('lists distinct addresses newest first with the zone they resolve to today', async () => {
    const phone = '+79990000003';
    await order({ phone, minutesAgo: 30, street: 'Old street', location: { lat: 10, lon: 10 } });
    await order({ phone, minutesAgo: 20, street: 'Тверская улица', location: { lat: 55.76, lon: 37.61 } });
    await order({ phone, minutesAgo: 10, street: '  тверская   УЛИЦА ', location: { lat: 55.76, lon: 37.61 } });
    await order({ phone, minutesAgo: 5, street: 'Other source street', source: 'other' });
    const r = await get(`/v1/guests/${phone}/addresses`);
    expect(r.statusCode).toBe(200);
    const list = r.json().addresses;
    expect(list.map((a: { address: { street: string } }) => a.address.street)).toEqual(['  тверская   УЛИЦА ', 'Old street']);
    expect(list[0].zone).toEqual({ zoneId: 'near-1', pointId: '1', name: 'near-1' });
    expect(list[1].zone).toBeNull();
  });

  it('gives an empty list for a phone without orders', async () => {
    expect((await get('/v1/guests/+79990000077/addresses')).json()).toEqual({ addresses: [] });
  });
});

describe('GET /v1/guests/{phone}/loyalty', () => {
  it('gives balances per program in kopecks, level and coupons from the loyalty service', async () => {
    const r = await get(`/v1/guests/${GUEST_WITH_LOYALTY}/loyalty`);
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.found).toBe(true);
    expect(body.pointId).toBe('1');
    expect(body.balances).toEqual([{ programId: expect.any(String), name: 'Bonus', type: 'bonus', balanceMinor: 50000, currency: 'RUB' }]);
    expect(body.level).toEqual({ id: 'category-Gold', name: 'Gold' });
    // the expired coupon is not usable, so not listed
    expect(body.coupons).toEqual([{ number: 'ONCE15', name: null, percent: 15, amountMinor: null, validTo: null }]);
  });

  it('answers found: false with empty lists for a guest the loyalty service does not know', async () => {
    const body = (await get('/v1/guests/+79990000088/loyalty')).json();
    expect(body).toEqual({ found: false, pointId: '1', balances: [], level: null, categories: [], coupons: [] });
  });

  it('maps a loyalty failure to 503 loyalty_unavailable', async () => {
    w.loyalty.failNext('guestLoyalty', 1, 'unavailable');
    const r = await get(`/v1/guests/${GUEST_WITH_LOYALTY}/loyalty`);
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ error: 'loyalty_unavailable' });
  });

  it('counts against the per-phone limit of 30 per minute (429 rate_limited, Retry-After: 60)', async () => {
    const phone = '+79990000055';
    for (let i = 0; i < 30; i++) expect((await get(`/v1/guests/${phone}/loyalty`)).statusCode).toBe(200);
    const r = await get(`/v1/guests/${phone}/loyalty`);
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBe('60');
  });
});
