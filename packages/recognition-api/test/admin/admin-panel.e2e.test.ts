import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRenderer, generateDocument } from '@app/docgen';
import type { RecognizedData } from '../../src/engine/engine.port.js';
import { makeEdoHarness, type EdoHarness } from '../edo/edo-harness.js';
import { CallbackSender } from '../../src/callbacks/callback-sender.js';
import { recognizeForm } from '../fixtures.js';
import { ADMIN_PASSWORD, ADMIN_USER } from './admin-harness.js';
import { launchChromium } from '@app/admin-web/testing';

/**
 * The administration panel as a person uses it: Debian chromium driven by playwright-core against the recognition
 * app listening on a real port, the Diadoc simulator behind the gateway. Screenshots of every section go to
 * `test-artifacts/admin/` (git-ignored) for review.
 */
const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/admin/', import.meta.url));

let e: EdoHarness;
let base = '';
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let lowConfidenceId = '';
let resendPage: Buffer;

const shot = (name: string, p: Page = page) => p.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
const api = (key: string) => fetch(`${base}/api/v1/documents`, { headers: { 'X-API-Key': key } });

async function upload(key: string, images: Buffer[], data: RecognizedData, type: string, ref: string): Promise<string> {
  e.h.engine.data = data;
  const res = await e.h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': key },
    payload: recognizeForm(
      images,
      { priority: 'high', document_type: type, client_ref: ref },
      images.map((_, i) => `page${i + 1}.png`),
    ),
  });
  expect(res.statusCode).toBe(200);
  return res.json().id as string;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  e = await makeEdoHarness({ connect: false });
  await e.h.services.admin.auth.setPassword(ADMIN_USER, ADMIN_PASSWORD);
  // Real-looking pages from docgen; the fake engine "recognises" the printed truth (one with a misread INN and sum).
  const upd = await generateDocument({ seed: 7, type: 'upd', tier: 'screenshot', lines: 4 });
  const inv = await generateDocument({ seed: 11, type: 'invoice', tier: 'screenshot', lines: 3 });
  resendPage = (await generateDocument({ seed: 12, type: 'invoice', tier: 'screenshot', lines: 2 })).images[0]!;
  await closeRenderer();
  await upload(e.keys.recognition, upd.images, upd.truth as RecognizedData, 'upd', 'ПТУ-2026-118');
  e.clock.advance(5 * 60_000);
  const misread = structuredClone(inv.truth) as RecognizedData;
  misread.seller.inn = `${misread.seller.inn!.slice(0, 9)}`;
  misread.items[1]!.amount_with_nds = (misread.items[1]!.amount_with_nds ?? 0) + 100;
  lowConfidenceId = await upload(e.keys.both, inv.images, misread, 'invoice', 'СФ-4471');
  base = await e.h.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
  ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'ru-RU' });
  page = await ctx.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await e?.close();
});

describe('admin panel in Chromium', () => {
  it('redirects a page requested without a session to sign-in', async () => {
    await page.goto(`${base}/admin/keys`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(await page.getByRole('heading', { name: 'Вход в панель' }).isVisible()).toBe(true);
  });

  it('refuses a wrong password, then signs in and lands on the requested page', async () => {
    await page.getByLabel('Имя пользователя').fill(ADMIN_USER);
    await page.getByLabel('Пароль').fill('not the password');
    await page.getByRole('button', { name: 'Войти' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Неверное имя пользователя или пароль.');
    await shot('01-login-refused');
    await page.getByLabel('Пароль').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.waitForURL(`${base}/admin/keys`);
    expect(await page.getByRole('heading', { name: 'Ключи API', level: 1 }).isVisible()).toBe(true);
  });

  it('is usable from the keyboard: skip link first, visible focus ring', async () => {
    await page.keyboard.press('Tab');
    // Strings, not functions: the test project has no DOM types; they run in the page.
    const focused = page.locator(':focus');
    expect(await focused.textContent()).toBe('Перейти к содержимому');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    expect(await focused.isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Документы');
  });

  let newKey = '';
  it('creates a key shown once with a copy button; the key works on GET /api/v1/documents', async () => {
    await page.getByLabel('Название').fill('Бухгалтерия, 1С');
    await page.getByLabel('ЭДО (шлюз оператора)').check();
    await page.getByRole('button', { name: 'Создать ключ' }).click();
    await page.getByRole('heading', { name: 'Ключ «Бухгалтерия, 1С» создан' }).waitFor();
    newKey = await page.getByLabel('Новый ключ API').inputValue();
    expect(newKey).toMatch(/^rk_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Скопировать ключ' }).click();
    await expect.poll(() => page.locator('.copied').first().textContent()).toMatch(/Скопировано|Выделено/);
    await shot('02-keys-created');
    const res = await api(newKey);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: [], total: 0 });
  });

  it('deactivates the key after confirmation: 401 INVALID_API_KEY at once', async () => {
    await page.goto(`${base}/admin/keys`);
    expect(await page.content()).not.toContain(newKey);
    const row = page.getByRole('row').filter({ hasText: 'Бухгалтерия, 1С' });
    await row.getByRole('link', { name: 'Отключить…' }).click();
    await page.getByRole('heading', { name: 'Отключить ключ «Бухгалтерия, 1С»?' }).waitFor();
    await shot('03-key-deactivate-confirm');
    await page.getByRole('button', { name: 'Отключить ключ' }).click();
    await page.waitForURL(/done=deactivated/);
    expect(await page.getByRole('row').filter({ hasText: 'Бухгалтерия, 1С' }).getByText('Отключён').isVisible()).toBe(true);
    await shot('04-keys');
    const res = await api(newKey);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INVALID_API_KEY');
  });

  it('refuses a POST without the CSRF token (same browser, same cookie)', async () => {
    const before = (await e.h.services.keys.list()).length;
    const res = await page.request.post(`${base}/admin/keys`, { form: { name: 'Подделка', scopes: 'recognition' }, maxRedirects: 0 });
    expect(res.status()).toBe(403);
    expect(await res.text()).toContain('Форма устарела или отправлена не из панели');
    expect((await e.h.services.keys.list()).length).toBe(before);
  });

  it('sets the e-document connection against the simulator and checks it: connected', async () => {
    await page.getByRole('link', { name: 'Подключение ЭДО' }).click();
    await page.getByLabel('Идентификатор клиента (client_id)').fill(e.sim.clientId);
    await page.getByLabel(/Секрет клиента/).fill(e.sim.clientSecret);
    await page.getByLabel(/Refresh-токен/).fill(e.sim.refreshToken);
    await page.getByLabel('Идентификатор ящика (box id)').fill(e.sim.boxId);
    await page.getByLabel('Адрес сервера авторизации').fill(e.sim.issuerUrl);
    await page.getByLabel('Адрес API оператора').fill(e.sim.apiUrl);
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.waitForURL(/saved=1/);
    expect(await page.content()).not.toContain(e.sim.clientSecret);
    await page.getByRole('button', { name: 'Проверить подключение' }).click();
    await page.getByRole('heading', { name: 'Подключено' }).waitFor();
    const org = String((await e.h.services.edo.gateway.currentOrganization()).FullName);
    expect(await page.locator('.check').textContent()).toContain(org);
    const me = e.sim.state.employees.find((x) => x.userId === e.sim.state.meUserId)!;
    expect(await page.locator('.check').textContent()).toContain(`Пользователь токена${me.fullName.LastName} ${me.fullName.FirstName}`);
    await shot('05-edo-connected');
  });

  it('a wrong client secret gives a readable error', async () => {
    await page.getByLabel(/Секрет клиента/).fill('not-the-secret');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.waitForURL(/saved=1/);
    await page.getByRole('button', { name: 'Проверить подключение' }).click();
    await page.getByRole('heading', { name: 'Подключение не работает' }).waitFor();
    expect(await page.locator('.check').textContent()).toContain('Сервер авторизации отклонил идентификатор или секрет клиента');
    await shot('06-edo-wrong-secret');
    await page.getByLabel(/Секрет клиента/).fill(e.sim.clientSecret);
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.waitForURL(/saved=1/);
  });

  it('shows a field error when the form is wrong', async () => {
    await page.getByLabel('Идентификатор ящика (box id)').fill('ящик-1');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    expect(await page.locator('#boxId-error').textContent()).toContain('Идентификатор ящика — это GUID');
    expect(await page.locator(':focus').getAttribute('id')).toBe('boxId');
    await shot('07-edo-form-error');
  });

  it('lists documents with filters and opens a recognised one with its fields and warnings', async () => {
    await page.getByRole('link', { name: 'Документы' }).click();
    expect(await page.getByRole('row').count()).toBe(3);
    await shot('08-documents');
    await page.getByLabel(/Нужна ручная проверка/).check();
    await page.getByRole('button', { name: 'Показать' }).click();
    await page.waitForURL(/review=1/);
    expect(await page.getByRole('row').count()).toBe(2);
    await page.getByRole('link', { name: lowConfidenceId }).click();
    await page.getByRole('heading', { name: 'Распознанные реквизиты' }).waitFor();
    const doc = (await e.h.services.admin.documents.get(lowConfidenceId)).data!;
    const inn = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'ИНН продавца' }) });
    expect(await inn.getAttribute('class')).toContain('has-warning');
    expect(await inn.textContent()).toContain(doc.seller.inn!);
    expect(
      await page
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'Покупатель' }) })
        .textContent(),
    ).toContain(doc.buyer.name!);
    expect(await page.getByText(doc.items[0]!.name).isVisible()).toBe(true);
    const img = page.getByRole('img', { name: `Страница 1 документа ${lowConfidenceId}` });
    // The image loads after the page: wait for it instead of reading its state once (flaky on a loaded machine).
    await img.waitFor({ state: 'visible' });
    await expect
      .poll(() => page.evaluate('document.querySelector(".pages img").complete && document.querySelector(".pages img").naturalWidth'))
      .toBeGreaterThan(100);
    await shot('09-document');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Выгрузить для учёта' }).click()]);
    expect(download.suggestedFilename()).toBe(`${lowConfidenceId}-accounting.json`);
  });

  it('re-sends a delivered callback from the document page, after which the log shows the new series', async () => {
    e.h.engine.data = (await e.h.services.admin.documents.get(lowConfidenceId)).data!;
    const res = await e.h.app.inject({
      method: 'POST',
      url: '/api/v1/recognize',
      headers: { 'x-api-key': e.keys.recognition },
      payload: recognizeForm([resendPage], {
        priority: 'high',
        client_ref: 'ОВ-resend',
        callback_url: 'https://receiver.example/hooks/recognition',
      }),
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().id as string;
    const sender = new CallbackSender({
      repo: e.h.services.callbacks,
      secrets: e.h.services.keys,
      http: { postJson: async () => ({ status: 200 }) },
      clock: e.clock,
    });
    await sender.runOnce();
    await sender.settled();
    await page.goto(`${base}/admin/documents/${id}`);
    await page.getByRole('heading', { name: 'Обратный вызов' }).waitFor();
    expect(await page.locator('section.callback strong').textContent()).toBe('доставлен');
    await page.getByRole('button', { name: 'Отправить обратный вызов повторно' }).click();
    await page.waitForURL(/done=resent/);
    expect(await page.getByRole('status').textContent()).toContain('Обратный вызов поставлен на повторную отправку.');
    expect(await page.getByText('повторная отправка № 1').isVisible()).toBe(true);
    // a series in flight cannot be re-sent: the button is gone until it ends
    expect(await page.getByRole('button', { name: 'Отправить обратный вызов повторно' }).count()).toBe(0);
    await shot('09b-callback-resent');
    expect((await e.h.services.callbacks.history(id))?.series).toBe(2);
  });

  it('works without JavaScript for the basic forms', async () => {
    const noJs = await browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
    try {
      const p = await noJs.newPage();
      await p.goto(`${base}/admin/login`);
      await p.getByLabel('Имя пользователя').fill(ADMIN_USER);
      await p.getByLabel('Пароль').fill(ADMIN_PASSWORD);
      await p.getByRole('button', { name: 'Войти' }).click();
      await p.waitForURL(`${base}/admin/documents`);
      await p.goto(`${base}/admin/keys`);
      await p.getByLabel('Название').fill('Без JavaScript');
      await p.getByRole('button', { name: 'Создать ключ' }).click();
      const key = await p.getByLabel('Новый ключ API').inputValue();
      expect((await api(key)).status).toBe(200);
    } finally {
      await noJs.close();
    }
  });

  it('signs out', async () => {
    await page.getByRole('button', { name: 'Выйти' }).click();
    await page.waitForURL(/signedOut=1/);
    expect(await page.getByRole('status').textContent()).toContain('Вы вышли из панели.');
    await page.goto(`${base}/admin/documents`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
  });

  it('rate-limits repeated failed sign-ins', async () => {
    e.clock.advance(16 * 60_000); // a fresh 15-minute window
    let text = '';
    for (let i = 0; i < 11 && !text.includes('Слишком много попыток'); i++) {
      await page.getByLabel('Имя пользователя').fill(ADMIN_USER);
      await page.getByLabel('Пароль').fill(`guess ${i}`);
      await page.getByRole('button', { name: 'Войти' }).click();
      await page.getByRole('alert').waitFor();
      text = (await page.getByRole('alert').textContent()) ?? '';
    }
    expect(text).toContain('Слишком много попыток входа');
    await page.getByLabel('Пароль').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Слишком много попыток входа');
    await shot('10-login-rate-limited');
  });
});
