import { RecordingOrderEvents } from '../support/recording-order-events.js';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomIds, systemClock, type Db } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { PartnerClient, PartnerApiError } from '@app/partner-sdk';
import { DEMO_CHAIN_PATH, DEMO_ZONES_PATH, loadChain, startPosSimulator, type ChainDescription, type PosSimulator } from '@app/pos-simulator';
import { buildApp, createServices } from '../../src/app.js';
import { SecretBox } from '../../src/auth/secret-box.js';
import { seedDemoChain } from '../../src/operator/demo-seed.js';
import { MIGRATIONS } from '../harness.js';

/**
 * End to end over real HTTP, the way a partner and a POS plugin call: the demo chain seeded by the operator code,
 * the POS simulator pushing catalog and heartbeats, and the partner SDK signing every request.
 */
let db: Db;
let app: FastifyInstance;
let sim: PosSimulator;
let client: PartnerClient;
let chain: ChainDescription;
/** The key of the demo's second source, which has every per-source switch on. */
let planned: PartnerClient;

beforeAll(async () => {
  db = await openTestDb(MIGRATIONS);
  const box = new SecretBox(randomBytes(32));
  const deps = {
    db,
    box,
    clock: systemClock,
    ids: randomIds,
    requestIdTtlSeconds: 600,
    heartbeatWindowSeconds: 90,
    masterKey: randomBytes(32),
    loyalty: null,
    events: new RecordingOrderEvents(),
  };
  app = await buildApp(deps, createServices(deps));
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  chain = await loadChain(DEMO_CHAIN_PATH);
  const creds = await seedDemoChain(db, box, chain, JSON.parse(readFileSync(DEMO_ZONES_PATH, 'utf8')), {});
  sim = await startPosSimulator({
    baseUrl,
    chain,
    terminals: chain.points.map((p) => ({ pointId: p.pointId, ...creds.pos[p.pointId] })),
    log: () => {},
  });
  await sim.syncAll();
  client = new PartnerClient({ baseUrl, apiKey: creds.partner.apiKey, apiSecret: creds.partner.apiSecret });
  planned = new PartnerClient({ baseUrl, apiKey: creds.planned!.apiKey, apiSecret: creds.planned!.apiSecret });
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  await app?.close();
  await db?.close();
});

describe('demo chain end to end (SDK + POS simulator over HTTP)', () => {
  it('lists the 14 points of the key; the disabled route is inactive, the others accept orders when open', async () => {
    const points = await client.listPoints();
    expect(points).toHaveLength(14);
    expect(points.find((p) => p.externalPointId === '113')!.active).toBe(false);
    const point101 = points.find((p) => p.externalPointId === '101')!;
    expect(point101).toMatchObject({ active: true, timezone: 'Europe/Moscow', deliveryTypes: ['courier', 'pickup'] });
    expect(point101.acceptsOrders).toBe(point101.isOpenNow);
  });

  it('menu with the stop-list applied, ETag and 304', async () => {
    const m = await client.menu('101');
    if (m.notModified) throw new Error('expected a menu');
    expect(m.data.items.length).toBeGreaterThanOrEqual(60 - 4);
    expect(m.data.items.some((i) => !i.available && i.unavailableReason === 'stop_list')).toBe(true);
    expect(m.etag).toBe(m.data.revision);
    expect(await client.menu('101', { etag: m.etag! })).toEqual({ notModified: true });
    const rev = await client.catalogRevision();
    expect(rev.points['101'].menu).toBe(m.data.revision);
    expect(rev.points['113']).toBeUndefined();
  });

  it('address check finds the ambiguous street of the POS dictionary; resolve picks a zone', async () => {
    expect(await client.checkAddress({ externalPointId: '101', street: 'Центральная улица', house: '1', city: 'Москва' })).toMatchObject({
      status: 'ambiguous',
    });
    const p = chain.points.find((x) => x.pointId === '101')!;
    const r = await client.resolveDelivery({ deliveryType: 'courier', location: p.location });
    expect(r.serviceable === false ? r.reason : r.pointId).toMatch(/^\d+$|point_not_accepting/);
  });

  it('status of the point with a disabled route is 404; a point outside the key is refused', async () => {
    await expect(client.pointStatus('113')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(client.pointStatus('999')).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await expect(client.pointStatus('999')).rejects.toBeInstanceOf(PartnerApiError);
  });
});

describe('the demo’s planned-features source (every switch on) next to website (every switch off)', () => {
  it('website keeps today’s contract: planned endpoints 404, no X-RateLimit headers', async () => {
    await expect(client.syncStatus()).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(client.guestOrders('+79990000001')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const r = await client.request('GET', '/v1/points');
    expect(r.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('the planned source gets /v1/status, guest history and addresses, and the rate-limit headers', async () => {
    const s = await planned.syncStatus();
    expect(s.points.map((p) => p.pointId)).toEqual(chain.points.map((p) => p.pointId));
    expect(s.points.find((p) => p.pointId === '101')?.pos.alive).toBe(true);
    expect(await planned.guestOrders('+79990000001', { limit: 5 })).toEqual({ orders: [], nextCursor: null });
    expect(await planned.guestAddresses('+79990000001')).toEqual([]);
    await expect(planned.guestOrders('12345')).rejects.toMatchObject({ status: 400, code: 'invalid_phone' });
    const r = await planned.request('GET', '/v1/points');
    expect(r.headers.get('x-ratelimit-limit')).toBe('100');
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(100);
  });
});
