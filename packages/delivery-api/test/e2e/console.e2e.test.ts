import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@app/admin-web/testing';
import { type OrderRequest, PartnerClient } from '@app/partner-sdk';
import {
  type ChainDescription,
  DEMO_CHAIN_PATH,
  DEMO_ZONES_PATH,
  loadChain,
  type PosSimulator,
  seededRandom,
  startPosSimulator,
} from '@app/pos-simulator';
import { type Db, ManualClock, randomIds } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createServices, type Services } from '../../src/app.js';
import { SecretBox } from '../../src/auth/secret-box.js';
import { seedDemoChain } from '../../src/operator/demo-seed.js';
import { ADMIN, SUPPORT } from '../console/console-client.js';
import { MIGRATIONS } from '../harness.js';
import { FakeLoyalty } from '../support/loyalty.fake.js';
import { makeLoyaltyConfig } from '../support/loyalty.fixtures.js';
import { createOutboxOrderEvents } from '../../src/webhooks/outbox.js';

/**
 * The support console in Chromium (issue 26): the demo chain with the POS simulator, an order to the simulator's
 * ambiguous street («Центральная улица») that the POS reports `reconciliation_required`, worked by a support account
 * to its end (manual review, review closed with a note); a second one rejected with JavaScript off; an admin reads the
 * audit log and the users page; a support account is refused the admin pages. Screenshots: test-artifacts/console/.
 */
const SHOTS = fileURLToPath(new URL('../../../../test-artifacts/console/', import.meta.url));
const HOUR = 3_600_000;
const clock = new ManualClock('2026-11-23T09:00:00Z');
let db: Db;
let app: FastifyInstance;
let services: Services;
let sim: PosSimulator;
let client: PartnerClient;
let chain: ChainDescription;
let productId: string;
let base = '';
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  db = await openTestDb(MIGRATIONS);
  chain = await loadChain(DEMO_CHAIN_PATH);
  const box = new SecretBox(randomBytes(32));
  const organizations = [...new Set(chain.points.map((p) => p.route.organizationId))];
  const deps = {
    db,
    box,
    clock,
    ids: randomIds,
    requestIdTtlSeconds: 600,
    heartbeatWindowSeconds: 90,
    masterKey: randomBytes(32),
    loyalty: new FakeLoyalty({ config: makeLoyaltyConfig({ organizations }), clock }),
    // the production adapter: the order's history (order_event_log) feeds the timeline
    events: createOutboxOrderEvents(randomIds),
  };
  services = createServices(deps);
  app = await buildApp(deps, services);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  const creds = await seedDemoChain(db, box, chain, JSON.parse(readFileSync(DEMO_ZONES_PATH, 'utf8')), {});
  sim = await startPosSimulator({
    baseUrl: base,
    chain,
    terminals: chain.points.map((p) => ({ pointId: p.pointId, ...creds.pos[p.pointId] })),
    clock,
    random: seededRandom(3),
    intervals: { heartbeatMs: HOUR, stopListMs: HOUR, menuMs: HOUR, ordersMs: HOUR },
    log: () => {},
  });
  client = new PartnerClient({ baseUrl: base, apiKey: creds.partner.apiKey, apiSecret: creds.partner.apiSecret, clock });
  const rotating = new Set([...chain.stopList.initial.map((e) => e.id), ...chain.stopList.rotation]);
  productId = chain.menu.items.find((i) => !i.hidden && !i.gift && !rotating.has(i.id) && i.priceMinor >= 40_000)!.id;
  await services.consoleCore.auth.createUser(ADMIN.username, ADMIN.password, 'admin');
  await services.consoleCore.auth.createUser(SUPPORT.username, SUPPORT.password, 'support');
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await sim?.stop();
  await app?.close();
  await db?.close();
});

let seq = 0;
/** A cash courier order from point 101 to `street`, claimed by the simulator; returns its externalOrderId. */
async function orderTo(street: string): Promise<{ id: string; ext: string }> {
  const phone = `+79992${String(++seq).padStart(6, '0')}`;
  const location = chain.points.find((p) => p.pointId === '101')!.location;
  const calc = await client.calculateCheckout({
    pointId: '101',
    deliveryType: 'courier',
    items: [{ id: productId, quantity: '2' }],
    guest: { phone },
    location,
  });
  const ext = `console-e2e-${seq}`;
  const body: OrderRequest = {
    schemaVersion: 1,
    source: 'website',
    externalOrderId: ext,
    externalPointId: '101',
    guest: { name: 'Анна', phone },
    address: { city: 'Москва', street, house: '7', flat: '12' },
    items: calc.items.map((l) => ({ externalProductId: l.id, quantity: l.quantity, price: l.unitPrice })),
    total: { amountMinor: calc.items.reduce((s, l) => s + l.lineTotal.amountMinor, 0), currency: 'RUB' },
    deliveryType: 'courier',
    calculationId: calc.calculationId,
    location,
    payment: { method: 'cash', paid: false, amountMinor: calc.total.amountMinor },
  };
  const created = await client.createOrder(body);
  await sim.tick();
  return { id: created.order.id, ext };
}

async function open(javaScriptEnabled = true): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ru-RU', javaScriptEnabled });
  contexts.push(ctx);
  return ctx.newPage();
}
async function signIn(p: Page, who: { username: string; password: string }): Promise<void> {
  await p.goto(`${base}/console/login`);
  await p.getByLabel('Имя пользователя').fill(who.username);
  await p.getByLabel('Пароль').fill(who.password);
  await p.getByRole('button', { name: 'Войти' }).click();
  await p.waitForURL(`${base}/console/orders`);
}
const shot = (name: string, p: Page) => p.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });

describe('support console in Chromium', () => {
  it('support works a reconciliation_required order from the ambiguous street to its end', async () => {
    const { id, ext } = await orderTo('Центральная улица');
    expect((await client.getOrder(id, 'website')).state).toBe('reconciliation_required');
    const p = await open();
    await p.goto(`${base}/console/login`);
    await shot('01-login', p);
    await signIn(p, SUPPORT);
    const row = p.getByRole('row', { name: new RegExp(ext) });
    await expect(row.getByText('касса не уверена в результате').isVisible()).resolves.toBe(true);
    await shot('02-orders-queue-support', p);
    await row.getByRole('link', { name: ext }).click();
    await p.waitForURL(`${base}/console/orders/${id}`);
    await expect(p.getByText('Состояние: reconciliation_required').isVisible()).resolves.toBe(true);
    await shot('03-order-reconciliation', p);
    await p.getByRole('link', { name: 'Передать на ручной разбор' }).click();
    await expect(p.getByText('Заказ перейдёт в состояние manual_review').isVisible()).resolves.toBe(true);
    await shot('04-confirm-manual-review', p);
    await p.getByRole('button', { name: /Подтвердить/ }).click();
    await p.waitForURL(`${base}/console/orders/${id}?done=manual-review`);
    expect((await client.getOrder(id, 'website')).state).toBe('manual_review');
    await p.getByRole('link', { name: 'Закрыть разбор с заметкой' }).click();
    await p.getByRole('button', { name: /Подтвердить/ }).click();
    await expect(p.getByText('Напишите, чем закончился разбор.').first().isVisible()).resolves.toBe(true);
    await shot('05-close-review-note-missing', p);
    await p.getByLabel('Заметка: чем закончился разбор').fill('Позвонили гостю: улица в Зеленограде, заказ оформлен на кассе вручную');
    await p.getByRole('button', { name: /Подтвердить/ }).click();
    await p.waitForURL(`${base}/console/orders/${id}?done=close-review`);
    await expect(p.getByText('улица в Зеленограде').first().isVisible()).resolves.toBe(true);
    await shot('06-order-review-closed', p);
    await p.goto(`${base}/console/orders`);
    expect(await p.getByRole('row', { name: new RegExp(ext) }).count()).toBe(0);
    await p.goto(`${base}/console/orders?phone=${encodeURIComponent(`+7999200000${seq}`.slice(0, 12))}`);
    await shot('07-orders-search', p);
  }, 120_000);

  it('the queue refreshes on its own; without JavaScript support still rejects an order through the reload link and forms', async () => {
    const p = await open();
    await signIn(p, SUPPORT);
    const { ext } = await orderTo('Центральная улица');
    // no navigation: the live table polls /console/orders/queue
    await p.getByRole('link', { name: ext }).waitFor({ timeout: 20_000 });
    const noJs = await open(false);
    await signIn(noJs, SUPPORT);
    await noJs.getByRole('link', { name: 'Обновить сейчас' }).click();
    await noJs.getByRole('link', { name: ext }).click();
    await noJs.getByRole('link', { name: 'Отклонить заказ' }).click();
    await shot('08-confirm-reject-nojs', noJs);
    await noJs.getByRole('button', { name: /Подтвердить/ }).click();
    await expect(noJs.getByText('Выполнено: Отклонить заказ.').isVisible()).resolves.toBe(true);
    await expect(noJs.getByText('rejected_final').first().isVisible()).resolves.toBe(true);
  }, 120_000);

  it('a support account cannot reach the admin pages; an admin reads the audit log and the users', async () => {
    const s = await open();
    await signIn(s, SUPPORT);
    expect(await s.getByRole('navigation').getByRole('link', { name: 'Журнал' }).count()).toBe(0);
    const refused = await s.goto(`${base}/console/audit`);
    expect(refused?.status()).toBe(403);
    await shot('09-support-refused-audit', s);
    expect((await s.goto(`${base}/console/users`))?.status()).toBe(403);

    const a = await open();
    await signIn(a, ADMIN);
    await a.getByRole('navigation').getByRole('link', { name: 'Журнал' }).click();
    await a.waitForURL(`${base}/console/audit`);
    await shot('10-audit-admin', a);
    await expect(a.getByText('Разбор заказа закрыт').first().isVisible()).resolves.toBe(true);
    await a.getByRole('navigation').getByRole('link', { name: 'Пользователи' }).click();
    await a.waitForURL(`${base}/console/users`);
    await expect(a.getByRole('cell', { name: SUPPORT.username, exact: true }).first().isVisible()).resolves.toBe(true);
    await shot('11-users-admin', a);
    await a.goto(`${base}/console/home`);
    await shot('12-home-admin', a);
  }, 120_000);
});
