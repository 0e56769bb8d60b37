import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildSignedHeaders, ManualClock, randomIds, type Db } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import type { RedisDeps } from '../src/redis/redis-client.js';
import { buildApp, createServices, type Services } from '../src/app.js';
import { SecretBox } from '../src/auth/secret-box.js';
import { OperatorService } from '../src/operator/operator.service.js';
import type { SimulatorConfig } from '@app/loyalty-simulator';
import { FakeLoyalty } from './support/loyalty.fake.js';
import { makeLoyaltyConfig } from './support/loyalty.fixtures.js';
import type { StepObserver } from '../src/common/recovery-points.js';
import type { OrderEvents } from '../src/orders/order-events.js';
import { RecordingOrderEvents } from './support/recording-order-events.js';
import { TenantsRepo } from '../src/tenants/tenants.repo.js';
import type { PartnerLimits } from '../src/rate-limit/partner-rate-limit.js';

export const MIGRATIONS = join(import.meta.dirname, '..', 'migrations');
/** Monday 2026-11-23 12:00 Moscow time. */
export const T0 = new Date('2026-11-23T09:00:00Z');

export const ORG = '7f9c1b1e-0000-4000-8000-000000000001';
export const TG = (n: number) => `7f9c1b1e-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;

export interface Key {
  apiKey: string;
  apiSecret: string;
}

/** A test world: one in-memory database, a ManualClock, a tenant with points 1..3 and keys. */
export interface World {
  db: Db;
  clock: ManualClock;
  app: FastifyInstance;
  services: Services;
  operator: OperatorService;
  box: SecretBox;
  partner: Key;
  pos: Record<string, Key>;
  loyalty: FakeLoyalty;
  events: RecordingOrderEvents;
  call(key: Key, method: 'GET' | 'POST', url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/**
 * Builds the world: tenant `t1`, source `website`, points 1 (route active), 2 (route active), 3 (route disabled),
 * 4 (no route); partner key for points 1, 2, 3, 4; POS keys for the terminal groups of points 1 and 2.
 */
export async function makeWorld(
  opts: {
    loyaltyRequestsPerMinute?: number;
    crash?: StepObserver;
    redis?: RedisDeps;
    /** Wraps the database the services use (e.g. a statement counter); the world's `db` stays the unwrapped one. */
    wrapDb?: (db: Db) => Db;
    /** Order events port (default: the world's recorder, `events`), e.g. the real outbox to count its statements. */
    orderEvents?: OrderEvents;
    /** Loyalty config keys replacing the defaults of makeLoyaltyConfig (e.g. more guests or certificates). */
    loyaltyOverrides?: Partial<SimulatorConfig>;
    /** General limits of the `rate-limits` switch (default the spec's 600/min per key, 100/min per IP). */
    partnerLimits?: PartnerLimits;
  } = {},
): Promise<World> {
  const rawDb = await openTestDb(MIGRATIONS);
  const db = opts.wrapDb ? opts.wrapDb(rawDb) : rawDb;
  const clock = new ManualClock(T0);
  const box = new SecretBox(randomBytes(32));
  const base = makeLoyaltyConfig();
  const programs = base.programs.map((p) => (p.id === 'gift' ? { ...p, gift: { productId: GIFT, quantityMilli: 1000 } } : p));
  const loyalty = new FakeLoyalty({ config: makeLoyaltyConfig({ organizations: [ORG], programs, ...opts.loyaltyOverrides }), clock });
  const events = new RecordingOrderEvents();
  const deps = {
    db,
    box,
    clock,
    ids: randomIds,
    requestIdTtlSeconds: 600,
    heartbeatWindowSeconds: 90,
    webhooksAllowInsecureLoopback: true,
    masterKey: randomBytes(32),
    loyalty,
    events: opts.orderEvents ?? events,
    loyaltyRequestsPerMinute: opts.loyaltyRequestsPerMinute,
    steps: opts.crash,
    redis: opts.redis,
    partnerLimits: opts.partnerLimits,
  };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  const operator = new OperatorService({ db, box });
  await operator.createTenant('t1', 'Test chain');
  await operator.createSource('t1', 'website');
  const pos: Record<string, Key> = {};
  for (const n of [1, 2, 3, 4]) {
    await operator.setPoint({
      tenantId: 't1',
      pointId: String(n),
      name: `Point ${n}`,
      address: `Street ${n}`,
      location: { lat: 55.75 + n * 0.01, lon: 37.6 + n * 0.01 },
      phone: '+74950000000',
      schedule: null,
      deliveryTypes: ['courier', 'pickup'],
    });
    if (n === 4) continue;
    await operator.setRoute({
      tenantId: 't1',
      source: 'website',
      pointId: String(n),
      organizationId: ORG,
      terminalGroupId: TG(n),
      orderTypeId: 'ot-1',
      operatorUserId: 'op-1',
      originName: 'website',
      active: n !== 3,
    });
    pos[String(n)] = await operator.issuePosCredential({ tenantId: 't1', organizationId: ORG, terminalGroupId: TG(n) });
  }
  await new TenantsRepo(db).updateSettings('t1', {
    bonusPaymentTypeCode: 'BONUS',
    certificatePaymentTypeCode: 'CERT',
    deliveryFeeProductId: 'fee-product-1',
    zonePricing: true,
  });
  const partner = await operator.issuePartnerCredential({ tenantId: 't1', source: 'website', pointIds: ['1', '2', '3', '4'] });
  const call: World['call'] = async (key, method, url, body, headers = {}) => {
    const raw = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const path = url.split('?')[0];
    const signed = buildSignedHeaders({
      apiKey: key.apiKey,
      secret: key.apiSecret,
      method,
      path,
      body: raw,
      requestId: randomIds.uuid(),
      now: clock.now(),
    });
    return app.inject({
      method,
      url,
      payload: method === 'POST' ? raw : undefined,
      headers: { ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...signed, ...headers },
    });
  };
  return { db: rawDb, clock, app, services, operator, box, partner, pos, call, loyalty, events };
}

/**
 * Adds source `source` to tenant `t1`, routed to the harness's points `pointIds` (their POS terminal groups), with
 * the switches `features` (a comma list, e.g. `guest-api`) on, and returns a partner key of it bound to those points.
 */
export async function addSource(w: World, source: string, o: { pointIds: string[]; features?: string }): Promise<Key> {
  await w.operator.createSource('t1', source);
  for (const pointId of o.pointIds)
    await w.operator.setRoute({
      tenantId: 't1',
      source,
      pointId,
      organizationId: ORG,
      terminalGroupId: TG(Number(pointId)),
      orderTypeId: 'ot-1',
      operatorUserId: 'op-1',
      originName: source,
    });
  if (o.features) await w.operator.sourceFeatures('t1', source, o.features);
  return w.operator.issuePartnerCredential({ tenantId: 't1', source, pointIds: o.pointIds });
}

export const MARGHERITA = '11111111-1111-4111-8111-111111111111';
export const CAPPUCCINO = '22222222-2222-4222-8222-222222222222';
export const BAG = '33333333-3333-4333-8333-333333333333';
export const GIFT = '44444444-4444-4444-8444-444444444444';

/** A small valid menu push with three categories, four items (one hidden, one gift). */
export function sampleMenu() {
  return {
    categories: [
      { id: 'c-pizza', name: 'Пицца', sort: 1, parentId: null },
      { id: 'c-drinks', name: 'Напитки', sort: 2, parentId: null },
      { id: 'c-hot', name: 'Горячие напитки', sort: 1, parentId: 'c-drinks' },
    ],
    items: [
      {
        id: '11111111-1111-4111-8111-111111111111',
        categoryId: 'c-pizza',
        name: 'Маргарита',
        description: 'Томаты, моцарелла',
        priceMinor: 59000,
        weightGrams: 450,
        nutrition: {
          kcalPer100g: 250,
          proteinPer100g: 11,
          fatPer100g: 9,
          carbsPer100g: 30,
          kcalPortion: 1125,
          proteinPortion: 49.5,
          fatPortion: 40.5,
          carbsPortion: 135,
        },
        hidden: false,
        gift: false,
      },
      {
        id: '22222222-2222-4222-8222-222222222222',
        categoryId: 'c-hot',
        name: 'Капучино',
        description: '300 мл',
        priceMinor: 19000,
        weightGrams: 300,
        hidden: false,
        gift: false,
      },
      {
        id: '33333333-3333-4333-8333-333333333333',
        categoryId: 'c-pizza',
        name: 'Пакет',
        description: '',
        priceMinor: 1000,
        weightGrams: 10,
        hidden: true,
        gift: false,
      },
      {
        id: '44444444-4444-4444-8444-444444444444',
        categoryId: 'c-pizza',
        name: 'Десерт в подарок',
        description: '',
        priceMinor: 0,
        weightGrams: 100,
        hidden: false,
        gift: true,
      },
    ],
  };
}

/**
 * A square GeoJSON zone feature around (lat, lon) with half-size `d` degrees ([lon, lat] positions, as GeoJSON),
 * priority 10, minimum 1000 ₽, fee 199 ₽, free from 2000 ₽, ETA 40-60 unless `props` say otherwise.
 */
export function squareZone(id: string, pointId: string, lat: number, lon: number, d: number, props: Record<string, unknown> = {}) {
  const ring = [
    [lon - d, lat - d],
    [lon + d, lat - d],
    [lon + d, lat + d],
    [lon - d, lat + d],
    [lon - d, lat - d],
  ];
  return {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [ring] },
    properties: {
      id,
      pointId,
      name: id,
      priority: 10,
      minOrderMinor: 100000,
      deliveryFeeMinor: 19900,
      freeDeliveryFromMinor: 200000,
      etaMin: 40,
      etaMax: 60,
      active: true,
      ...props,
    },
  };
}
