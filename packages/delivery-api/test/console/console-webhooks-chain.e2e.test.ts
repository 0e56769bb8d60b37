import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { launchChromium } from '@app/admin-web/testing';
import { signWebhook } from '@app/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueOrderEvent } from '../../src/webhooks/outbox.js';
import { CAPPUCCINO, sampleMenu, squareZone, type World } from '../harness.js';
import { makeOrderView, type TestReceiver } from '../webhooks/webhook-world.js';
import { ADMIN, SUPPORT } from './console-client.js';
import { makeConsoleWebhooksWorld } from './console-webhooks-world.js';

/**
 * The console's webhooks and chain pages in Chromium (issue 26 items 3-4): replay of a dead webhook to a receiver
 * that recovers, secret rotation, a revoked credential's partner getting 401, support kept out of the chain pages.
 * Screenshots of every page go to /work/notes/console-shots/ (prefix c2-).
 */
const SHOTS = '/work/notes/console-shots/';
let w: World;
let base = '';
let browser: Browser;
const contexts: BrowserContext[] = [];
let receiver: TestReceiver;
let cw: Awaited<ReturnType<typeof makeConsoleWebhooksWorld>>;
const dispatcher = () => cw.dispatcher();
const shot = (name: string, p: Page) => p.screenshot({ path: `${SHOTS}c2-${name}.png`, fullPage: true });

async function open(): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'ru-RU' });
  ctx.setDefaultTimeout(20_000); // a shared, busy machine: slow but not stuck
  contexts.push(ctx);
  return ctx.newPage();
}
async function signIn(p: Page, who: { username: string; password: string }): Promise<void> {
  await p.goto(`${base}/console/login`);
  await p.getByLabel('Имя пользователя').fill(who.username);
  await p.getByLabel('Пароль').fill(who.password);
  await p.getByRole('button', { name: 'Войти' }).click();
  await p.waitForURL((u) => u.pathname.startsWith('/console/') && !u.pathname.endsWith('/login'));
}

/** An event of `website` sent through the whole retry schedule to the failing receiver: a dead delivery. */
const deadDelivery = async (): Promise<string> => (await cw.deadDelivery()).id;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  cw = await makeConsoleWebhooksWorld([squareZone('z2', '2', 55.79, 37.64, 0.015, { priority: 5 })]);
  ({ w, receiver } = cw);
  await w.operator.setPoint({
    tenantId: 't1',
    pointId: '1',
    schedule: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, open: '10:00', close: '23:00' })).concat([{ weekday: 6, open: '11:00', close: '02:00' }]),
  });
  for (const n of ['1', '2']) await w.call(w.pos[n]!, 'POST', '/pos/v1/heartbeat', {});
  await w.call(w.pos['1']!, 'POST', '/pos/v1/menu', sampleMenu());
  await w.call(w.pos['1']!, 'POST', '/pos/v1/stop-list', { items: [{ id: CAPPUCCINO, balance: 0 }] });
  base = await w.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await cw?.close();
});

describe('console webhooks and chain in Chromium', { timeout: 90_000 }, () => {
  let admin: Page;
  let support: Page;

  it('an admin sets the webhook URL of a source and sees the new secret once', async () => {
    admin = await open();
    await signIn(admin, ADMIN);
    await admin.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Вебхуки' }).click();
    await shot('01-webhooks-empty', admin);
    await admin.getByRole('link', { name: 'website' }).click();
    await admin.getByLabel('Новый адрес').fill(receiver.url);
    await admin.getByRole('button', { name: 'Сохранить адрес' }).click();
    const secret = await admin.locator('#webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shot('02-webhook-url-set-secret-once', admin);
    await admin.reload();
    expect(await admin.locator('#webhook-secret').count()).toBe(0);
  });

  it('support replays a dead webhook to the receiver that recovered', async () => {
    const id = await deadDelivery();
    support = await open();
    await signIn(support, SUPPORT);
    await support.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Вебхуки' }).click();
    await shot('03-webhooks-dead', support);
    await support.getByRole('link', { name: 'website' }).click();
    await shot('04-webhook-source', support);
    await support.getByRole('link', { name: 'order.state_changed' }).first().click();
    await expect.poll(() => support.locator('#delivery-status').textContent()).toBe('не доставлен');
    await shot('05-webhook-delivery-dead', support);
    await support.goBack();
    cw.control.failing = false;
    await support.locator(`input[name="ids"][value="${id}"]`).check();
    await support.getByRole('button', { name: 'Отправить отмеченные повторно' }).click();
    await expect.poll(() => support.getByRole('status').first().textContent()).toContain('Поставлено в очередь повторно: 1');
    await shot('06-webhook-replayed', support);
    await dispatcher().runOnce();
    await support.goto(`${base}/console/webhooks/deliveries/${id}`);
    await expect.poll(() => support.locator('#delivery-status').textContent()).toBe('доставлен');
    await shot('07-webhook-delivery-delivered', support);
    expect(receiver.requests.at(-1)?.headers['x-service-event-id']).toBeTruthy();
  });

  it('an admin rotates the webhook secret behind a confirmation; the next webhook is signed with the new one', async () => {
    // the dead delivery's retry schedule moved the clock by hours: the first session has expired
    await signIn(admin, ADMIN);
    await admin.goto(`${base}/console/webhooks/t1/website`);
    await admin.getByRole('link', { name: 'Новый секрет…' }).click();
    await shot('08-webhook-rotate-confirm', admin);
    await admin.getByRole('button', { name: 'Создать новый секрет' }).click();
    const secret = await admin.locator('#webhook-secret').inputValue();
    await shot('09-webhook-rotated', admin);
    await w.db.tx((q) =>
      enqueueOrderEvent(q, {
        tenantId: 't1',
        source: 'website',
        type: 'order.state_changed',
        order: makeOrderView(),
        occurredAt: w.clock.now(),
        eventId: randomUUID(),
      }),
    );
    await dispatcher().runOnce();
    const req = receiver.requests.at(-1)!;
    const ts = String(req.headers['x-service-timestamp']);
    expect(req.headers['x-service-signature']).toBe(signWebhook(secret, ts, String(req.headers['x-service-event-id']), req.body));
  });

  it('support cannot reach the chain pages', async () => {
    expect(await support.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Сеть' }).count()).toBe(0);
    const res = await support.goto(`${base}/console/chain`);
    expect(res?.status()).toBe(403);
    await shot('10-support-chain-forbidden', support);
  });

  it('an admin sees the points with their sync state, a point page and its stop-list', async () => {
    for (const n of ['1', '2']) await w.call(w.pos[n]!, 'POST', '/pos/v1/heartbeat', {});
    await admin.getByRole('navigation', { name: 'Разделы' }).getByRole('link', { name: 'Сеть' }).click();
    await expect.poll(() => admin.locator('table').first().textContent()).toContain('на связи');
    await shot('11-chain-points', admin);
    await admin.getByRole('link', { name: '1', exact: true }).click();
    await expect.poll(() => admin.locator('#sync').textContent()).toContain('на связи');
    expect(await admin.textContent('main')).toContain('Капучино');
    await shot('12-chain-point', admin);
  });

  it('an admin turns a route off and on', async () => {
    await admin.goto(`${base}/console/chain`);
    await admin.getByRole('button', { name: 'Выключить маршрут website точки 2' }).click();
    await expect.poll(() => admin.getByRole('status').first().textContent()).toContain('Маршрут изменён');
    expect((await w.call(w.partner, 'GET', '/v1/points/2/status')).statusCode).toBe(404);
    await shot('13-chain-route-off', admin);
    await admin.getByRole('button', { name: 'Включить маршрут website точки 2' }).click();
    await expect.poll(async () => (await w.call(w.partner, 'GET', '/v1/points/2/status')).statusCode).toBe(200);
  });

  it('a click on the zones map tries resolve there', async () => {
    await admin.goto(`${base}/console/chain/zones?tenant=t1`);
    await shot('14-chain-zones', admin);
    // the centre of zone z1 on the drawn map
    for (const n of ['1', '2']) await w.call(w.pos[n]!, 'POST', '/pos/v1/heartbeat', {});
    const box = (await admin.locator('#zone-map path', { has: admin.locator('title', { hasText: 'Зона z1 ' }) }).boundingBox())!;
    await admin.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => admin.locator('#resolve-result').textContent()).toContain('обслуживается');
    expect(await admin.locator('#resolve-result').textContent()).toContain('точка 1');
    await shot('15-chain-zones-resolved', admin);
  });

  it('an admin issues a partner credential, revokes it, and the partner gets 401', async () => {
    await admin.goto(`${base}/console/chain/credentials?tenant=t1`);
    await admin.getByLabel('Точки').fill('1, 2');
    await admin.getByRole('button', { name: 'Выпустить ключ партнёра' }).click();
    const apiKey = await admin.locator('#issued-key').inputValue();
    const apiSecret = await admin.locator('#issued-secret').inputValue();
    await shot('16-chain-credential-issued', admin);
    const key = { apiKey, apiSecret };
    expect((await w.call(key, 'GET', '/v1/points')).statusCode).toBe(200);
    await admin.locator(`a[href*="/credentials/${apiKey}/revoke"]`).click();
    await shot('17-chain-credential-revoke-confirm', admin);
    await admin.getByRole('button', { name: 'Отозвать ключ' }).click();
    await expect.poll(() => admin.getByRole('status').first().textContent()).toContain('Ключ отозван');
    await shot('18-chain-credentials-revoked', admin);
    w.clock.advance(6_000); // past the 5 s credential cache
    expect((await w.call(key, 'GET', '/v1/points')).statusCode).toBe(401);
  });
});
