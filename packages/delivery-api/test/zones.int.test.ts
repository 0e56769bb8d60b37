import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, squareZone, type World } from './harness.js';

let w: World;

beforeAll(async () => {
  w = await makeWorld();
  // point 1 at (55.76, 37.61), point 2 at (55.77, 37.62)
  await w.operator.loadZones('t1', {
    type: 'FeatureCollection',
    features: [
      squareZone('z1', '1', 55.76, 37.61, 0.02),
      squareZone('z2', '2', 55.77, 37.62, 0.02, { priority: 5, etaMin: undefined, etaMax: undefined }),
      squareZone('z1-far', '1', 55.9, 37.9, 0.02, { priority: 1 }),
      squareZone('z2-far', '2', 55.9, 37.9, 0.02, { priority: 1 }),
      squareZone('z-off', '1', 56.2, 38.2, 0.02, { active: false }),
    ],
  });
  await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
  await w.call(w.pos['2'], 'POST', '/pos/v1/heartbeat', {});
  await w.call(w.pos['2'], 'POST', '/pos/v1/streets', {
    streets: [
      { name: 'Тверская улица', city: 'Москва' },
      { name: 'Центральная улица', city: 'Москва' },
      { name: 'Центральная улица', city: 'Зеленоград' },
    ],
  });
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

const resolve = async (body: unknown) => (await w.call(w.partner, 'POST', '/v1/delivery/resolve', body)).json();

describe('GET /v1/points/{id}/delivery-zones', () => {
  it('returns zones with [latitude, longitude] vertices and Money fields', async () => {
    const r = await w.call(w.partner, 'GET', '/v1/points/1/delivery-zones');
    const z1 = r.json().zones.find((z: { id: string }) => z.id === 'z1');
    expect(z1.polygon[0][0]).toBeCloseTo(55.74, 9);
    expect(z1.polygon[0][1]).toBeCloseTo(37.59, 9);
    expect(z1).toMatchObject({
      minOrder: { amountMinor: 100000, currency: 'RUB' },
      deliveryFee: { amountMinor: 19900, currency: 'RUB' },
      freeDeliveryFrom: { amountMinor: 200000, currency: 'RUB' },
      etaMinutes: { min: 40, max: 60 },
      priority: 10,
      active: true,
    });
    expect(r.json().zones.find((z: { id: string }) => z.id === 'z-off').active).toBe(false);
  });
  it('404 for a point outside the key', async () => {
    const narrow = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['1'] });
    expect((await w.call(narrow, 'GET', '/v1/points/2/delivery-zones')).statusCode).toBe(404);
  });
});

describe('POST /v1/delivery/resolve', () => {
  it('the zone containing the coordinates wins; on overlap the lowest priority', async () => {
    // (55.765, 37.615) lies in z1 (priority 10) and z2 (priority 5) → z2
    const r = await resolve({ deliveryType: 'courier', location: { lat: 55.765, lon: 37.615 } });
    expect(r).toMatchObject({ serviceable: true, pointId: '2', zoneId: 'z2' });
  });
  it('on equal priority the nearest point wins', async () => {
    expect(await resolve({ deliveryType: 'courier', location: { lat: 55.9, lon: 37.9 } })).toMatchObject({ pointId: '2', zoneId: 'z2-far' });
  });
  it('only one zone contains the location', async () => {
    const r = await resolve({ deliveryType: 'courier', location: { lat: 55.745, lon: 37.595 } });
    expect(r).toEqual({
      serviceable: true,
      pointId: '1',
      zoneId: 'z1',
      minOrder: { amountMinor: 100000, currency: 'RUB' },
      deliveryFee: { amountMinor: 19900, currency: 'RUB' },
      freeDeliveryFrom: { amountMinor: 200000, currency: 'RUB' },
      etaMinutes: { min: 40, max: 60 },
      street: null,
    });
  });
  it('default ETA 45 min for courier when the zone has none, 90 min for pickup', async () => {
    expect((await resolve({ deliveryType: 'courier', location: { lat: 55.785, lon: 37.635 } })).etaMinutes).toEqual({ min: 45, max: 45 });
    const pickup = await resolve({ deliveryType: 'pickup' });
    expect(pickup).toMatchObject({
      serviceable: true,
      zoneId: null,
      etaMinutes: { min: 90, max: 90 },
      deliveryFee: { amountMinor: 0, currency: 'RUB' },
    });
  });
  it('pickup with coordinates picks the nearest accepting point', async () => {
    expect((await resolve({ deliveryType: 'pickup', location: { lat: 55.771, lon: 37.621 } })).pointId).toBe('2');
    expect((await resolve({ deliveryType: 'pickup', location: { lat: 55.759, lon: 37.609 } })).pointId).toBe('1');
  });
  it('reasons: outside_zones, no_location, geocoding_required, and an inactive zone does not count', async () => {
    expect(await resolve({ deliveryType: 'courier', location: { lat: 50, lon: 30 } })).toEqual({ serviceable: false, reason: 'outside_zones' });
    expect(await resolve({ deliveryType: 'courier', location: { lat: 56.2, lon: 38.2 } })).toEqual({ serviceable: false, reason: 'outside_zones' });
    expect(await resolve({ deliveryType: 'courier' })).toEqual({ serviceable: false, reason: 'no_location' });
    expect(await resolve({ deliveryType: 'courier', address: { city: 'Москва', street: 'Тверская улица', house: '1' } })).toEqual({
      serviceable: false,
      reason: 'geocoding_required',
    });
  });
  it('point_not_accepting when the chosen point is offline', async () => {
    w.clock.advance(91_000);
    expect(await resolve({ deliveryType: 'courier', location: { lat: 55.745, lon: 37.595 } })).toEqual({
      serviceable: false,
      reason: 'point_not_accepting',
    });
    expect(await resolve({ deliveryType: 'pickup' })).toEqual({ serviceable: false, reason: 'point_not_accepting' });
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    await w.call(w.pos['2'], 'POST', '/pos/v1/heartbeat', {});
  });
  it('street status: ok, ambiguous, not_found, unknown (dictionary not loaded)', async () => {
    const at = { lat: 55.785, lon: 37.635 }; // only z2 → point 2 with a dictionary
    const s = async (street: string, loc = at) => (await resolve({ deliveryType: 'courier', location: loc, address: { street, house: '1' } })).street;
    expect(await s('Тверская улица')).toEqual({ status: 'ok', name: 'Тверская улица' });
    expect(await s('Центральная улица')).toEqual({ status: 'ambiguous', name: null });
    expect(await s('Несуществующая улица')).toEqual({ status: 'not_found', name: null });
    expect(await s('Тверская улица', { lat: 55.745, lon: 37.595 })).toEqual({ status: 'unknown', name: null });
  });
  it('400 for a malformed body', async () => {
    expect((await w.call(w.partner, 'POST', '/v1/delivery/resolve', { deliveryType: 'drone' })).statusCode).toBe(400);
    expect((await w.call(w.partner, 'POST', '/v1/delivery/resolve', { deliveryType: 'courier', location: { lat: 95, lon: 0 } })).statusCode).toBe(
      400,
    );
  });
});

describe('POST /v1/addresses/check', () => {
  const check = (body: unknown) => w.call(w.partner, 'POST', '/v1/addresses/check', body);
  it('ok with street {name, city}; the city of the request is ignored; house echoed, not verified', async () => {
    const r = await check({ externalPointId: '2', street: 'Тверская улица', house: '999', city: 'Санкт-Петербург' });
    expect(r.json()).toEqual({ status: 'ok', street: { name: 'Тверская улица', city: 'Москва' }, house: '999' });
  });
  it('ambiguous with candidates', async () => {
    const r = await check({ externalPointId: '2', street: 'Центральная улица', house: '1', city: 'Москва' });
    expect(r.json()).toEqual({
      status: 'ambiguous',
      candidates: [
        { name: 'Центральная улица', city: 'Москва' },
        { name: 'Центральная улица', city: 'Зеленоград' },
      ],
      house: '1',
    });
  });
  it('exact name only: another case or spelling is not_found', async () => {
    expect((await check({ externalPointId: '2', street: 'тверская улица', house: '1', city: 'Москва' })).json().status).toBe('not_found');
    expect((await check({ externalPointId: '2', street: 'Тверская', house: '1', city: 'Москва' })).json().status).toBe('not_found');
  });
  it('unknown while the dictionary is not loaded', async () => {
    expect((await check({ externalPointId: '1', street: 'Тверская улица', house: '1', city: 'Москва' })).json()).toEqual({
      status: 'unknown',
      house: '1',
    });
  });
  it('403 outside the key, 404 without an active route, 400 unknown field', async () => {
    const narrow = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['1'] });
    expect((await w.call(narrow, 'POST', '/v1/addresses/check', { externalPointId: '2', street: 'x', house: '1', city: 'x' })).statusCode).toBe(403);
    expect((await check({ externalPointId: '3', street: 'x', house: '1', city: 'x' })).statusCode).toBe(404);
    expect((await check({ externalPointId: '2', street: 'x', house: '1', city: 'x', zip: '1' })).statusCode).toBe(400);
  });
});

describe('Zones import (operator)', () => {
  it('refuses a file with a bad feature and keeps the zones', async () => {
    await expect(
      w.operator.loadZones('t1', { type: 'FeatureCollection', features: [squareZone('bad', '1', 55, 37, 0.1, { minOrderMinor: -5 })] }),
    ).rejects.toThrow(/minOrderMinor/);
    await expect(w.operator.loadZones('t1', { type: 'FeatureCollection', features: [squareZone('x', '99', 55, 37, 0.1)] })).rejects.toThrow(
      /unknown points: 99/,
    );
    expect((await w.call(w.partner, 'GET', '/v1/points/1/delivery-zones')).json().zones).toHaveLength(3);
  });
});

describe('Zone index cache', () => {
  const at = { lat: 55.5, lon: 37.5 };
  it('a zone import is seen by the next resolve (the index is rebuilt on a new zone revision)', async () => {
    expect(await resolve({ deliveryType: 'courier', location: at })).toEqual({ serviceable: false, reason: 'outside_zones' });
    await w.operator.loadZones('t1', { type: 'FeatureCollection', features: [squareZone('z-new', '1', 55.5, 37.5, 0.02)] });
    expect(await resolve({ deliveryType: 'courier', location: at })).toMatchObject({ serviceable: true, zoneId: 'z-new' });
  });
  it('any write to delivery_zones, even hand-written SQL from another process, bumps the revision', async () => {
    const before = (await w.db.query<{ revision: string }>('SELECT revision::text FROM zone_revision'))[0].revision;
    await w.db.query(`UPDATE delivery_zones SET active = false WHERE zone_id = 'z-new'`);
    expect((await w.db.query<{ revision: string }>('SELECT revision::text FROM zone_revision'))[0].revision).not.toBe(before);
    expect(await resolve({ deliveryType: 'courier', location: at })).toEqual({ serviceable: false, reason: 'outside_zones' });
  });
});
