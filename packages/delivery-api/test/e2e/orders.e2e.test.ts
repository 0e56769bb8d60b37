import { RecordingOrderEvents } from '../support/recording-order-events.js';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, randomIds, type Db } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { PartnerClient, type OrderRequest } from '@app/partner-sdk';
import {
  DEMO_CHAIN_PATH,
  DEMO_ZONES_PATH,
  loadChain,
  seededRandom,
  startPosSimulator,
  type ChainDescription,
  type PosSimulator,
} from '@app/pos-simulator';
import { buildApp, createServices } from '../../src/app.js';
import { SecretBox } from '../../src/auth/secret-box.js';
import { FakeLoyalty } from '../support/loyalty.fake.js';
import { GUEST_PHONE, makeLoyaltyConfig } from '../support/loyalty.fixtures.js';
import { seedDemoChain } from '../../src/operator/demo-seed.js';
import { MIGRATIONS } from '../harness.js';

/**
 * The POS order flow end to end over real HTTP: the demo chain, the partner SDK placing checkout orders, and the
 * POS simulator claiming them at the collecting point (101) and walking them through states, delivery statuses
 * and cancellations. One ManualClock drives the app, the SDK and the simulator; every simulator round is a `tick()`.
 */
let db: Db;
let app: FastifyInstance;
let sim: PosSimulator;
let client: PartnerClient;
let chain: ChainDescription;
/** Monday 12:00 Moscow: point 101 is open (10:00–23:00). */
const clock = new ManualClock('2026-11-23T09:00:00Z');
const HOUR = 3_600_000;
const STEP = 20_000;
let productId: string;

beforeAll(async () => {
  db = await openTestDb(MIGRATIONS);
  chain = await loadChain(DEMO_CHAIN_PATH);
  const box = new SecretBox(randomBytes(32));
  const organizations = [...new Set(chain.points.map((p) => p.route.organizationId))];
  const loyalty = new FakeLoyalty({ config: makeLoyaltyConfig({ organizations }), clock });
  const deps = {
    db,
    box,
    clock,
    ids: randomIds,
    requestIdTtlSeconds: 600,
    heartbeatWindowSeconds: 90,
    masterKey: randomBytes(32),
    loyalty,
    events: new RecordingOrderEvents(),
  };
  app = await buildApp(deps, createServices(deps));
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const creds = await seedDemoChain(db, box, chain, JSON.parse(readFileSync(DEMO_ZONES_PATH, 'utf8')), {});
  // Timers are an hour apart so that only the test's tick() calls move anything.
  sim = await startPosSimulator({
    baseUrl,
    chain,
    terminals: chain.points.map((p) => ({ pointId: p.pointId, ...creds.pos[p.pointId] })),
    clock,
    random: seededRandom(3),
    intervals: { heartbeatMs: HOUR, stopListMs: HOUR, menuMs: HOUR, ordersMs: HOUR },
    deliveryStepMs: STEP,
    log: () => {},
  });
  client = new PartnerClient({ baseUrl, apiKey: creds.partner.apiKey, apiSecret: creds.partner.apiSecret, clock });
  // A product the stop-list rotation never touches, so every calculation can sell it.
  const rotating = new Set([...chain.stopList.initial.map((e) => e.id), ...chain.stopList.rotation]);
  productId = chain.menu.items.find((i) => !i.hidden && !i.gift && !rotating.has(i.id) && i.priceMinor >= 40_000)!.id;
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  await app?.close();
  await db?.close();
});

let seq = 0;
/** Calculates a cart of two items and places the matching cash order (like test/order-factory.ts, through the SDK). */
async function placeOrder(o: { pointId?: string; deliveryType?: 'courier' | 'pickup'; street?: string; phone?: string } = {}) {
  const pointId = o.pointId ?? '101';
  const deliveryType = o.deliveryType ?? 'courier';
  const phone = o.phone ?? `+79991${String(++seq).padStart(6, '0')}`;
  const location = deliveryType === 'courier' ? chain.points.find((p) => p.pointId === pointId)!.location : undefined;
  const calc = await client.calculateCheckout({
    pointId,
    deliveryType,
    items: [{ id: productId, quantity: '2' }],
    guest: { phone },
    ...(location ? { location } : {}),
  });
  const body: OrderRequest = {
    schemaVersion: 1,
    source: 'website',
    externalOrderId: `e2e-${Date.now()}-${seq}`,
    externalPointId: pointId,
    guest: { name: 'Иван', phone },
    address: { city: 'Москва', street: o.street ?? 'Тверская улица', house: '1', flat: '5' },
    items: calc.items.map((l) => ({ externalProductId: l.id, quantity: l.quantity, price: l.unitPrice })),
    total: { amountMinor: calc.items.reduce((s, l) => s + l.lineTotal.amountMinor, 0), currency: 'RUB' },
    deliveryType,
    calculationId: calc.calculationId,
    ...(location ? { location } : {}),
    payment: { method: 'cash', paid: false, amountMinor: calc.total.amountMinor },
  };
  const created = await client.createOrder(body);
  expect(created).toMatchObject({ status: 201, order: { state: 'queued' } });
  return created.order.id;
}

const view = (id: string) => client.getOrder(id, 'website');
/** Advances the shared clock by one delivery step and runs one simulator round. */
async function step(): Promise<void> {
  clock.advance(STEP);
  await sim.tick();
}

describe('POS order flow end to end (SDK + POS simulator over HTTP)', () => {
  it('a courier order is claimed at 101, created_verified, then walked to Delivered and Closed', async () => {
    const id = await placeOrder({ phone: GUEST_PHONE });
    await sim.tick();
    const created = await view(id);
    expect(created).toMatchObject({ state: 'created_verified', deliveryStatus: 'Unconfirmed', route: { externalPointId: '101' } });
    expect(created.posOrderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.posDeliveryId).toMatch(/^[0-9a-f-]{36}$/);
    const seen: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      await step();
      seen.push((await view(id)).deliveryStatus);
    }
    expect(seen).toEqual(['New', 'Waiting', 'OnWay', 'Delivered', 'Closed']);
    expect(await view(id)).toMatchObject({ state: 'created_verified', posOrderId: created.posOrderId });
  });

  it('an order with an ambiguous street ends in reconciliation_required', async () => {
    expect(await client.checkAddress({ externalPointId: '101', street: 'Центральная улица', house: '1', city: 'Москва' })).toMatchObject({
      status: 'ambiguous',
    });
    const id = await placeOrder({ street: 'Центральная улица' });
    await sim.tick();
    expect(await view(id)).toMatchObject({ state: 'reconciliation_required', posOrderId: null, deliveryStatus: null });
  });

  it('an order of a point that does not collect orders stays queued', async () => {
    const id = await placeOrder({ pointId: '103', deliveryType: 'pickup' });
    await sim.tick();
    expect(await view(id)).toMatchObject({ state: 'queued', deliveryStatus: null });
  });

  it('a cancel of an order in creation is 202 and the POS executes it', async () => {
    const id = await placeOrder();
    await sim.tick();
    expect(await view(id)).toMatchObject({ state: 'created_verified', deliveryStatus: 'Unconfirmed' });
    const asked = await client.cancelOrder(id, { reason: 'guest_request', comment: 'передумал' });
    expect(asked).toMatchObject({ status: 202, order: { cancelState: 'requested', state: 'created_verified' } });
    await step();
    expect(await view(id)).toMatchObject({ state: 'cancelled', deliveryStatus: 'Cancelled', cancelDetail: null });
    await step();
    expect((await view(id)).deliveryStatus).toBe('Cancelled');
  });

  it('a cancel after the order moved past New is refused with not_new; a second cancel is 409 cancel_rejected', async () => {
    const id = await placeOrder();
    await sim.tick();
    await step();
    await step();
    expect(await view(id)).toMatchObject({ state: 'created_verified', deliveryStatus: 'Waiting' });
    expect((await client.cancelOrder(id, { reason: 'guest_request', comment: 'долго' })).status).toBe(202);
    await sim.tick();
    expect(await view(id)).toMatchObject({ state: 'created_verified', cancelState: 'rejected', cancelDetail: 'not_new' });
    await expect(client.cancelOrder(id, { reason: 'guest_request', comment: 'ещё раз' })).rejects.toMatchObject({
      status: 409,
      code: 'cancel_rejected',
    });
  });
});
