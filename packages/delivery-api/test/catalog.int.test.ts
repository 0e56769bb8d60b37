import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, sampleMenu, type World } from './harness.js';

let w: World;
beforeAll(async () => {
  w = await makeWorld();
});
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

const MARGHERITA = '11111111-1111-4111-8111-111111111111';
const CAPPUCCINO = '22222222-2222-4222-8222-222222222222';

describe('POS catalog pushes (POS protocol)', () => {
  it('a never-synced point serves an empty stale menu with revision "0"', async () => {
    const r = await w.call(w.partner, 'GET', '/v1/points/2/menu');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ pointId: '2', revision: '0', items: [], categories: [], stale: true, currency: 'RUB' });
  });

  it('pushes the menu: revision changes only when content changes, syncedAt on every push', async () => {
    const first = await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ changed: true, syncedAt: w.clock.now().toISOString() });
    w.clock.advance(60_000);
    const same = await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
    expect(same.json()).toMatchObject({ changed: false, revision: first.json().revision, syncedAt: w.clock.now().toISOString() });
    const m = sampleMenu();
    m.items[0].priceMinor = 61000;
    const changed = await w.call(w.pos['1'], 'POST', '/pos/v1/menu', m);
    expect(changed.json().changed).toBe(true);
    expect(changed.json().revision).not.toBe(first.json().revision);
    await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
  });

  it('refuses bad pushes with a clear message and keeps the stored menu', async () => {
    const before = (await w.call(w.partner, 'GET', '/v1/points/1/menu')).json();
    const bad = [
      { ...sampleMenu(), extra: true },
      { ...sampleMenu(), items: [{ ...sampleMenu().items[0], id: 'not-a-uuid' }] },
      { ...sampleMenu(), items: [{ ...sampleMenu().items[0], categoryId: 'nope' }] },
      { ...sampleMenu(), items: [sampleMenu().items[0], sampleMenu().items[0]] },
      { ...sampleMenu(), items: [{ ...sampleMenu().items[0], priceMinor: 10.5 }] },
      { ...sampleMenu(), categories: [{ id: 'x', name: 'X', sort: 1, parentId: 'missing' }], items: [] },
    ];
    for (const body of bad) {
      const r = await w.call(w.pos['1'], 'POST', '/pos/v1/menu', body);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('invalid_request');
      expect(typeof r.json().message).toBe('string');
    }
    expect((await w.call(w.partner, 'GET', '/v1/points/1/menu')).json()).toEqual(before);
  });

  it('a POS key writes only its own terminal group', async () => {
    await w.call(w.pos['2'], 'POST', '/pos/v1/menu', { categories: [], items: [] });
    const m1 = (await w.call(w.partner, 'GET', '/v1/points/1/menu')).json();
    expect(m1.items.length).toBe(2);
  });
});

describe('GET /v1/points/{id}/menu', () => {
  it('applies the stop-list, hides hidden and gift items, converts prices to Money, keeps nutrition optional', async () => {
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [{ id: CAPPUCCINO, balance: 0 }] });
    const r = await w.call(w.partner, 'GET', '/v1/points/1/menu');
    const menu = r.json();
    expect(menu.items.map((i: { id: string }) => i.id)).toEqual([MARGHERITA, CAPPUCCINO]);
    expect(menu.items[0]).toMatchObject({
      price: { amountMinor: 59000, currency: 'RUB' },
      available: true,
      unavailableReason: null,
      weightGrams: 450,
    });
    expect(menu.items[0].nutrition.kcalPer100g).toBe(250);
    expect(menu.items[1]).toMatchObject({ available: false, unavailableReason: 'stop_list' });
    expect('nutrition' in menu.items[1]).toBe(false);
    expect(menu.categories).toContainEqual({ id: 'c-hot', name: 'Горячие напитки', sort: 1, parentId: 'c-drinks' });
    expect(r.headers.etag).toBe(menu.revision);
  });

  it('ETag/If-None-Match: 304 without body while fresh; the revision follows availability', async () => {
    const first = await w.call(w.partner, 'GET', '/v1/points/1/menu');
    const rev = first.json().revision;
    const again = await w.call(w.partner, 'GET', '/v1/points/1/menu', undefined, { 'if-none-match': rev });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // a Content-Length other than the 200's would make strict clients (autocannon) wait for a body that never comes
    expect(again.headers['content-length']).toBeUndefined();
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [] });
    const after = await w.call(w.partner, 'GET', '/v1/points/1/menu', undefined, { 'if-none-match': rev });
    expect(after.statusCode).toBe(200);
    expect(after.json().revision).not.toBe(rev);
  });

  it('stale after 30 minutes without sync, and then always 200', async () => {
    await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
    const rev = (await w.call(w.partner, 'GET', '/v1/points/1/menu')).json().revision;
    w.clock.advance(30 * 60_000);
    const at30 = await w.call(w.partner, 'GET', '/v1/points/1/menu', undefined, { 'if-none-match': rev });
    expect(at30.statusCode).toBe(304);
    w.clock.advance(1000);
    const stale = await w.call(w.partner, 'GET', '/v1/points/1/menu', undefined, { 'if-none-match': rev });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().stale).toBe(true);
    await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
    expect((await w.call(w.partner, 'GET', '/v1/points/1/menu')).json().stale).toBe(false);
  });

  it('403 for a point outside the key, 404 for a point without an active route', async () => {
    const narrow = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['1'] });
    const r403 = await w.call(narrow, 'GET', '/v1/points/2/menu');
    expect(r403.statusCode).toBe(403);
    expect(r403.json()).toEqual({ error: 'forbidden' });
    for (const p of ['3', '4']) {
      const r = await w.call(w.partner, 'GET', `/v1/points/${p}/menu`);
      expect(r.statusCode, p).toBe(404);
      expect(r.json()).toEqual({ error: 'not_found' });
    }
  });
});

describe('GET /v1/points/{id}/stop-list, /v1/catalog/revision, /products', () => {
  it('stop-list with ETag, 304 and stale', async () => {
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', {
      items: [
        { id: CAPPUCCINO, balance: 0 },
        { id: MARGHERITA, balance: 3 },
      ],
    });
    const r = await w.call(w.partner, 'GET', '/v1/points/1/stop-list');
    const body = r.json();
    expect(body).toMatchObject({ pointId: '1', stale: false });
    expect(body.items).toHaveLength(2);
    expect(r.headers.etag).toBe(body.revision);
    expect((await w.call(w.partner, 'GET', '/v1/points/1/stop-list', undefined, { 'if-none-match': body.revision })).statusCode).toBe(304);
    w.clock.advance(31 * 60_000);
    const stale = await w.call(w.partner, 'GET', '/v1/points/1/stop-list', undefined, { 'if-none-match': body.revision });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().stale).toBe(true);
    // a positive balance is limited stock, not out
    const menu = (await w.call(w.partner, 'GET', '/v1/points/1/menu')).json();
    expect(menu.items.find((i: { id: string }) => i.id === MARGHERITA).available).toBe(true);
  });

  it('catalog revision lists every routed point of the key with the same revisions as the ETags', async () => {
    const r = (await w.call(w.partner, 'GET', '/v1/catalog/revision')).json();
    const menu = await w.call(w.partner, 'GET', '/v1/points/1/menu');
    const stop = await w.call(w.partner, 'GET', '/v1/points/1/stop-list');
    expect(r.points['1']).toEqual({ menu: menu.headers.etag, stopList: stop.headers.etag });
    expect(Object.keys(r.points).sort()).toEqual(['1', '2']);
  });

  it('legacy product mappings', async () => {
    const push = await w.call(w.pos['1'], 'POST', '/pos/v1/product-mappings', {
      products: [{ externalProductId: 'site-1', productId: MARGHERITA, kind: 'dish' }],
    });
    expect(push.statusCode).toBe(200);
    const r = await w.call(w.partner, 'GET', '/v1/points/1/products');
    expect(r.json()).toEqual({ externalPointId: '1', products: [{ externalProductId: 'site-1', kind: 'dish' }] });
    const dup = await w.call(w.pos['1'], 'POST', '/pos/v1/product-mappings', {
      products: [
        { externalProductId: 'a', productId: MARGHERITA, kind: 'dish' },
        { externalProductId: 'a', productId: CAPPUCCINO, kind: 'dish' },
      ],
    });
    expect(dup.statusCode).toBe(400);
    expect((await w.call(w.partner, 'GET', '/v1/points/1/products')).json().products).toHaveLength(1);
  });
});

describe('Points and status', () => {
  it('heartbeat makes the terminal alive for the configured window', async () => {
    const hb = await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    expect(hb.json()).toEqual({ serverTime: w.clock.now().toISOString(), aliveWindowSeconds: 90 });
    expect((await w.call(w.partner, 'GET', '/v1/points/1/status')).json()).toEqual({
      acceptsOrders: true,
      terminalAlive: true,
      isOpenNow: true,
      reason: null,
    });
    w.clock.advance(91_000);
    expect((await w.call(w.partner, 'GET', '/v1/points/1/status')).json()).toEqual({
      acceptsOrders: false,
      terminalAlive: false,
      isOpenNow: true,
      reason: 'terminal_offline',
    });
  });

  it('closed by schedule gives reason closed; offline is reported first', async () => {
    await w.call(w.pos['2'], 'POST', '/pos/v1/heartbeat', {});
    // T0+: Monday ~12:00 Moscow; a Monday window 18:00-03:00 is closed now
    await w.operator.setPoint({ tenantId: 't1', pointId: '2', schedule: [{ weekday: 1, open: '18:00', close: '03:00' }] });
    expect((await w.call(w.partner, 'GET', '/v1/points/2/status')).json()).toEqual({
      acceptsOrders: false,
      terminalAlive: true,
      isOpenNow: false,
      reason: 'closed',
    });
    w.clock.advance(120_000);
    expect((await w.call(w.partner, 'GET', '/v1/points/2/status')).json().reason).toBe('terminal_offline');
    await w.operator.setPoint({ tenantId: 't1', pointId: '2', schedule: null });
  });

  it('GET /v1/points returns every point of the key with all Point fields', async () => {
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    await w.call(w.pos['1'], 'POST', '/pos/v1/streets', { streets: [{ name: 'Тверская улица', city: 'Москва' }] });
    const points = (await w.call(w.partner, 'GET', '/v1/points')).json().points;
    expect(points.map((p: { externalPointId: string }) => p.externalPointId)).toEqual(['1', '2', '3', '4']);
    expect(points[0]).toEqual({
      externalPointId: '1',
      active: true,
      streetsSyncedAt: w.clock.now().toISOString(),
      name: 'Point 1',
      address: 'Street 1',
      location: { lat: 55.76, lon: 37.61 },
      phone: '+74950000000',
      timezone: 'Europe/Moscow',
      schedule: null,
      isOpenNow: true,
      acceptsOrders: true,
      deliveryTypes: ['courier', 'pickup'],
    });
    expect(points[2]).toMatchObject({ externalPointId: '3', active: false, acceptsOrders: false });
    expect(points[3]).toMatchObject({ externalPointId: '4', active: false, acceptsOrders: false, streetsSyncedAt: null });
  });

  it('status: 403 outside the key, 404 without an active route', async () => {
    const narrow = await w.operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['1'] });
    expect((await w.call(narrow, 'GET', '/v1/points/2/status')).statusCode).toBe(403);
    expect((await w.call(w.partner, 'GET', '/v1/points/3/status')).statusCode).toBe(404);
  });

  it('enabling a disabled route makes the point readable', async () => {
    await w.operator.setRouteActive('t1', 'website', '3', true);
    expect((await w.call(w.partner, 'GET', '/v1/points/3/status')).statusCode).toBe(200);
    await w.operator.setRouteActive('t1', 'website', '3', false);
    expect((await w.call(w.partner, 'GET', '/v1/points/3/status')).statusCode).toBe(404);
  });
});
