import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomIds } from '@app/shared';
import { ConsoleChainService } from '../../src/console/chain/console-chain.service.js';
import { drawZoneMap, toLatLon } from '../../src/console/chain/zone-map.js';
import { CAPPUCCINO, makeWorld, sampleMenu, squareZone, type World } from '../harness.js';

let w: World;
let chain: ConsoleChainService;
beforeAll(async () => {
  w = await makeWorld();
  chain = new ConsoleChainService({ db: w.db, box: w.box, clock: w.clock, zones: w.services.zones, heartbeatWindowSeconds: 90, ids: randomIds });
  await w.operator.loadZones('t1', { type: 'FeatureCollection', features: [squareZone('z1', '1', 55.76, 37.61, 0.02)] });
});
afterAll(() => w.db.close());

describe('console chain service', () => {
  it('lists points with schedule, routes and the POS sync state of each route', async () => {
    expect((await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {})).statusCode).toBe(200);
    await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu());
    await w.call(w.pos['1'], 'POST', '/pos/v1/stop-list', { items: [{ id: CAPPUCCINO, balance: 0 }] });
    const points = await chain.points('t1');
    expect(points.map((p) => p.pointId)).toEqual(['1', '2', '3', '4']);
    const p1 = points[0]!;
    expect(p1.routes).toHaveLength(1);
    expect(p1.routes[0]).toMatchObject({ source: 'website', active: true, stoppedItems: 1 });
    expect(p1.routes[0]!.lastHeartbeatAt?.toISOString()).toBe(w.clock.now().toISOString());
    expect(p1.routes[0]!.menuSyncedAt).not.toBeNull();
    expect(chain.alive(p1.routes[0]!.lastHeartbeatAt)).toBe(true);
    w.clock.advance(91_000);
    expect(chain.alive(p1.routes[0]!.lastHeartbeatAt)).toBe(false);
    expect(points[3]!.routes).toEqual([]);
    expect(points[2]!.routes[0]!.active).toBe(false);
    const detail = await chain.point('t1', '1');
    expect(detail.stopLists).toEqual([{ source: 'website', items: [{ id: CAPPUCCINO, name: 'Капучино', balance: 0 }] }]);
    await expect(chain.point('t1', '99')).rejects.toMatchObject({ status: 404 });
  });

  it('turns a route off and on; the partner sees the point stop and resume accepting', async () => {
    await chain.setRouteActive('t1', 'website', '2', false);
    expect((await chain.points('t1'))[1]!.routes[0]!.active).toBe(false);
    expect((await w.call(w.partner, 'GET', '/v1/points/2/status')).statusCode).toBe(404);
    await chain.setRouteActive('t1', 'website', '2', true);
    expect((await w.call(w.partner, 'GET', '/v1/points/2/status')).statusCode).toBe(200);
    await expect(chain.setRouteActive('t1', 'website', '4', true)).rejects.toMatchObject({ status: 404 });
  });

  it('resolves a location as the source would, and refuses coordinates that are not numbers in range', async () => {
    await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {});
    const inside = await chain.resolve('t1', { source: 'website', lat: '55.76', lon: '37,61' });
    expect(inside.result).toMatchObject({ serviceable: true, pointId: '1', zoneId: 'z1' });
    const outside = await chain.resolve('t1', { source: 'website', lat: '10', lon: '10' });
    expect(outside.result).toEqual({ serviceable: false, reason: 'outside_zones' });
    await expect(chain.resolve('t1', { source: 'website', lat: 'north', lon: '37' })).rejects.toMatchObject({ status: 422, field: 'lat' });
    await expect(chain.resolve('t1', { source: 'website', lat: '55', lon: '200' })).rejects.toMatchObject({ status: 422, field: 'lon' });
    await expect(chain.resolve('t1', { source: 'nope', lat: '55', lon: '37' })).rejects.toMatchObject({ status: 422, field: 'source' });
  });

  it('draws zones and points into the box, and a click inverts to the same coordinates', async () => {
    const map = await chain.zoneMap('t1', { lat: 55.76, lon: 37.61 });
    expect(map.zones).toHaveLength(1);
    for (const m of map.markers) {
      expect(m.x).toBeGreaterThanOrEqual(0);
      expect(m.x).toBeLessThanOrEqual(map.frame.width);
      expect(m.y).toBeGreaterThanOrEqual(0);
      expect(m.y).toBeLessThanOrEqual(map.frame.height);
    }
    const at = map.markers.find((m) => m.id === 'resolve')!;
    const back = toLatLon(map.frame, at.x, at.y);
    expect(back.lat).toBeCloseTo(55.76, 3);
    expect(back.lon).toBeCloseTo(37.61, 3);
    // north is up: a larger latitude is drawn higher (smaller y)
    const m = drawZoneMap(
      [],
      [
        { id: 'a', label: 'a', lat: 55.7, lon: 37.6 },
        { id: 'b', label: 'b', lat: 55.8, lon: 37.6 },
      ],
    );
    expect(m.markers[1]!.y).toBeLessThan(m.markers[0]!.y);
  });

  it('issues a partner credential that works, revokes it, and the partner then gets 401', async () => {
    await expect(chain.issuePartner('t1', { source: 'website', points: '' })).rejects.toMatchObject({ status: 422, field: 'points' });
    await expect(chain.issuePartner('t1', { source: 'website', points: '1, 77' })).rejects.toMatchObject({ status: 422, field: 'points' });
    await expect(chain.issuePartner('t1', { source: 'nope', points: '1' })).rejects.toMatchObject({ status: 422, field: 'source' });
    const issued = await chain.issuePartner('t1', { source: 'website', points: '1, 2' });
    expect(issued.apiSecret.length).toBeGreaterThanOrEqual(32);
    const key = { apiKey: issued.apiKey, apiSecret: issued.apiSecret };
    expect((await w.call(key, 'GET', '/v1/points')).statusCode).toBe(200);
    const listed = (await chain.credentials('t1')).find((c) => c.api_key === issued.apiKey);
    expect(listed).toMatchObject({ kind: 'partner', revoked_at: null, point_ids: ['1', '2'] });
    expect(JSON.stringify(await chain.credentials('t1'))).not.toContain(issued.apiSecret);
    await chain.revoke('t1', issued.apiKey);
    w.clock.advance(6_000); // past the 5 s credential cache
    expect((await w.call(key, 'GET', '/v1/points')).statusCode).toBe(401);
    await expect(chain.revoke('t1', issued.apiKey)).rejects.toMatchObject({ status: 404 });
  });

  it('issues a POS credential for the terminal group of a routed point only', async () => {
    const pos = await chain.issuePos('t1', { point: '2', source: 'website' });
    expect((await w.call({ apiKey: pos.apiKey, apiSecret: pos.apiSecret }, 'POST', '/pos/v1/heartbeat', {})).statusCode).toBe(200);
    await expect(chain.issuePos('t1', { point: '4' })).rejects.toMatchObject({ status: 422, field: 'point' });
  });

  it('switches a source feature on and off; unknown switch 422, unknown source 404', async () => {
    expect(await chain.switches('t1')).toEqual([{ source: 'website', features: [] }]);
    expect(await chain.setSwitch('t1', 'website', 'guest-api', true)).toEqual(['guest-api']);
    w.clock.advance(6_000);
    expect((await w.call(w.partner, 'GET', '/v1/status')).statusCode).toBe(200);
    expect(await chain.setSwitch('t1', 'website', 'guest-api', false)).toEqual([]);
    await expect(chain.setSwitch('t1', 'website', 'teleport', true)).rejects.toMatchObject({ status: 422 });
    await expect(chain.setSwitch('t1', 'nope', 'guest-api', true)).rejects.toMatchObject({ status: 404 });
  });
});
