import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdoHarness, type EdoHarness } from '../edo/edo-harness.js';
import { makeData, recognizeForm } from '../fixtures.js';
import { ADMIN_PASSWORD, ADMIN_USER } from './admin-harness.js';
import { launchChromium } from '@app/admin-web/testing';

/**
 * Sign-in behind a TLS proxy (X-Forwarded-For/-Proto, TRUST_PROXY), a reload
 * after key creation, TIFF and PDF pages shown, stored secrets bound to their hosts. Screenshots go to
 * /tmp/shots-h23/ for review.
 */
const SHOTS = '/tmp/shots-h23/';
let e: EdoHarness;
let base = '';
let browser: Browser;
const contexts: BrowserContext[] = [];
let page: Page;
let docId = '';

/** A browser whose requests reach us through the TLS proxy at 127.0.0.1: its address and https in X-Forwarded-*. */
async function behindProxy(client: string): Promise<Page> {
  const ctx = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'ru-RU',
    extraHTTPHeaders: { 'X-Forwarded-For': client, 'X-Forwarded-Proto': 'https' },
  });
  contexts.push(ctx);
  return ctx.newPage();
}
async function signIn(p: Page, password: string): Promise<void> {
  await p.goto(`${base}/admin/login`);
  await p.getByLabel('Имя пользователя').fill(ADMIN_USER);
  await p.getByLabel('Пароль').fill(password);
  await p.getByRole('button', { name: 'Войти' }).click();
}
const shot = (name: string, p: Page = page) => p.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });

/** A valid one-page PDF (A6, a grey rectangle) with a correct cross-reference table. */
function onePagePdf(): Buffer {
  const drawing = '0.5 g 20 20 200 300 re f';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 298 420] /Contents 4 0 R >>',
    `<< /Length ${drawing.length} >>\nstream\n${drawing}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  e = await makeEdoHarness({ app: { trustProxy: ['127.0.0.1'], admin: { loginMaxAttempts: 3, loginWindowMs: 60_000 } } });
  await e.h.services.admin.auth.setPassword(ADMIN_USER, ADMIN_PASSWORD);
  const tiff = await sharp({ create: { width: 600, height: 840, channels: 3, background: '#f4f1e8' } })
    .composite([{ input: Buffer.from('<svg width="600" height="840"><text x="60" y="120" font-size="48">TIFF page</text></svg>') }])
    .tiff()
    .toBuffer();
  e.h.engine.data = makeData();
  const up = await e.h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': e.keys.recognition },
    payload: recognizeForm([tiff, onePagePdf()], { priority: 'high', client_ref: 'TIFF+PDF' }, ['scan.tif', 'scan.pdf']),
  });
  expect(up.statusCode).toBe(200);
  docId = up.json().id;
  base = await e.h.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await e?.close();
});

describe('admin panel behind a TLS proxy, in Chromium', () => {
  it('a guesser behind the proxy is limited by its own address; the administrator signs in from another one', async () => {
    const guesser = await behindProxy('203.0.113.7');
    for (let i = 0; i < 3; i++) {
      await signIn(guesser, 'not the password');
      await expect.poll(() => guesser.getByRole('alert').textContent()).toContain('Неверное имя пользователя или пароль.');
    }
    await signIn(guesser, ADMIN_PASSWORD);
    await expect.poll(() => guesser.getByRole('alert').textContent()).toContain('Слишком много попыток входа');
    await shot('01-proxy-guesser-limited', guesser);
    page = await behindProxy('198.51.100.20');
    await signIn(page, ADMIN_PASSWORD);
    await page.waitForURL(`${base}/admin/documents`);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'admin_session')!;
    expect(cookie.secure).toBe(true); // https seen through X-Forwarded-Proto of the trusted proxy
    await shot('02-proxy-admin-signed-in');
  });

  it('a reload of the page that shows a new key creates no second key and no longer shows it', async () => {
    await page.goto(`${base}/admin/keys`);
    await page.getByLabel('Название').fill('Склад, перезагрузка');
    await page.getByRole('button', { name: 'Создать ключ' }).click();
    await page.getByRole('heading', { name: 'Ключ «Склад, перезагрузка» создан' }).waitFor();
    const key = await page.getByLabel('Новый ключ API').inputValue();
    expect(key).toMatch(/^rk_/);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/admin/keys?created=1');
    await shot('03-key-created');
    await page.reload();
    await page.getByRole('heading', { name: 'Ключи API', level: 1 }).waitFor();
    expect(await page.getByLabel('Новый ключ API').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    expect((await e.h.services.keys.list()).filter((k) => k.name === 'Склад, перезагрузка')).toHaveLength(1);
    await shot('04-key-page-reloaded');
  });

  it('shows TIFF and PDF pages as images (PNG previews), sent no-store', async () => {
    const res = await page.goto(`${base}/admin/documents/${docId}/pages/1`);
    expect(res!.headers()['cache-control']).toBe('no-store');
    await page.goto(`${base}/admin/documents/${docId}`);
    const imgs = page.locator(`img[src^="/admin/documents/${docId}/pages/"]`);
    await expect.poll(() => imgs.count()).toBe(2);
    // A string, not a function: the test project has no DOM types; it runs in the page. 0 = a broken image.
    const widths = `[...document.querySelectorAll('img[src^="/admin/documents/${docId}/pages/"]')].map((i) => (i.complete ? i.naturalWidth : -1))`;
    // The TIFF at its 600 px; the A6 PDF page (298 pt) rendered at 300 DPI: 1242 px, under the 1400 px cap.
    await expect.poll(() => page.evaluate(widths)).toEqual([600, 1242]);
    await shot('05-document-tiff-pdf');
  });

  it('a changed API host without both secrets is refused; the check names the token user, not GetEmployees', async () => {
    await page.goto(`${base}/admin/edo`);
    await page.getByLabel('Адрес API оператора').fill('https://evil.example.net');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect
      .poll(() => page.locator('.field-error').first().textContent())
      .toContain('введите «Секрет клиента (client_secret)» и «Refresh-токен» заново');
    await shot('06-edo-host-changed-refused');
    expect((await e.h.services.edo.repo.get())!.apiBaseUrl).toBe(e.sim.apiUrl);
    await page.goto(`${base}/admin/edo`);
    await page.getByRole('button', { name: 'Проверить подключение' }).click();
    await page.getByRole('heading', { name: 'Подключено' }).waitFor();
    expect(await page.locator('.check').textContent()).toContain('Пользователь токена');
    expect(e.sim.requests).not.toContain('GET /GetEmployees');
    await shot('07-edo-check');
  });

  it('the audit log shows who did what from which address (the proxy-forwarded client address)', async () => {
    await page.getByRole('link', { name: 'Журнал' }).click();
    await page.getByRole('heading', { name: 'Журнал действий', level: 1 }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Создан ключ' });
    expect(await row.textContent()).toContain('198.51.100.20');
    expect(await page.getByRole('row').filter({ hasText: 'Неудачный вход' }).first().textContent()).toContain('203.0.113.7');
    await shot('08-audit');
  });
});
