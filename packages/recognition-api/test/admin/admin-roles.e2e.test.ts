import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@app/admin-web/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPage, recognizeForm } from '../fixtures.js';
import type { Harness } from '../harness.js';
import { ADMIN_PASSWORD, ADMIN_USER, makeAdminHarness } from './admin-harness.js';

/**
 * Accounts and roles, per-key usage and the retry of a failed document in Chromium, the viewer signing in behind a
 * TLS proxy (X-Forwarded-For/-Proto with TRUST_PROXY). Screenshots go to test-artifacts/admin-roles/ for review.
 */
const SHOTS = fileURLToPath(new URL('../../../../test-artifacts/admin-roles/', import.meta.url));
const VIEWER = 'auditor';
const VIEWER_PASSWORD = 'viewer password 123';
let h: Harness;
let base = '';
let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: Page;
let failedId = '';

async function open(headers: Record<string, string> = {}): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'ru-RU', extraHTTPHeaders: headers });
  contexts.push(ctx);
  return ctx.newPage();
}
async function signIn(p: Page, user: string, password: string): Promise<void> {
  await p.goto(`${base}/admin/login`);
  await p.getByLabel('Имя пользователя').fill(user);
  await p.getByLabel('Пароль').fill(password);
  await p.getByRole('button', { name: 'Войти' }).click();
  await p.waitForURL(`${base}/admin/documents`);
}
const shot = (name: string, p: Page) => p.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await makeAdminHarness({ trustProxy: ['127.0.0.1'] });
  const up = await h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': h.keyA },
    payload: recognizeForm([await pngPage()], { client_ref: 'retry-me' }),
  });
  failedId = up.json().id;
  // A document the engine gave up on: the state a poison document or a dead engine leaves.
  await h.db.query(
    `UPDATE documents SET status = 'failed', completed_at = $2, processing_time_ms = 10, error_code = 'RECOGNITION_FAILED',
            error_message = 'the recognition engine failed' WHERE id = $1`,
    [failedId, h.clock.now()],
  );
  for (let i = 0; i < 4; i++) {
    const list = await h.app.inject({ method: 'GET', url: '/api/v1/documents', headers: { 'x-api-key': h.keyA } });
    expect(list.statusCode, list.body).toBe(200);
  }
  await h.app.inject({ method: 'GET', url: '/api/v1/documents/doc_nothere', headers: { 'x-api-key': h.keyA } });
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await h?.close();
});

describe('accounts, roles, usage and retry in Chromium', () => {
  it('an admin creates a viewer account on the users page', async () => {
    admin = await open();
    await signIn(admin, ADMIN_USER, ADMIN_PASSWORD);
    await admin.getByRole('link', { name: 'Пользователи' }).click();
    await admin.getByLabel('Имя пользователя').fill(VIEWER);
    await admin.getByLabel('Пароль (не короче 12 символов)').fill(VIEWER_PASSWORD);
    await admin.getByLabel('Роль', { exact: true }).selectOption('viewer');
    await admin.getByRole('button', { name: 'Создать' }).click();
    await expect.poll(() => admin.getByRole('status').textContent()).toContain('Учётная запись создана.');
    await expect.poll(() => admin.locator('table').textContent()).toContain('Наблюдатель');
    await shot('01-users-viewer-created', admin);
  });

  it('the keys page shows requests and errors per key', async () => {
    await admin.getByRole('link', { name: 'Ключи API' }).click();
    const row = admin.locator('tr', { has: admin.locator('td', { hasText: /^A$/ }) });
    // 4 lists + 1 not found + the upload.
    await expect.poll(() => row.locator('td.usage').textContent()).toMatch(/24 ч: 6 \/ 1\s*7 дн: 6 \/ 1/);
    await shot('02-keys-usage', admin);
  });

  it('retries a failed document from its page; it is queued again', async () => {
    await admin.goto(`${base}/admin/documents/${failedId}`);
    await shot('03-failed-document', admin);
    await admin.getByRole('button', { name: 'Распознать заново' }).click();
    await expect.poll(() => admin.getByRole('status').textContent()).toContain('Документ снова в очереди');
    expect((await h.services.docs.getById(failedId))!.status).toBe('queued');
    await shot('04-retried-document', admin);
  });

  it('the viewer signs in behind the proxy, sees no forms, and a forged POST is refused with 403', async () => {
    const viewer = await open({ 'X-Forwarded-For': '198.51.100.30', 'X-Forwarded-Proto': 'https' });
    await signIn(viewer, VIEWER, VIEWER_PASSWORD);
    const cookie = (await viewer.context().cookies()).find((c) => c.name === 'admin_session')!;
    expect(cookie.secure).toBe(true);
    await viewer.getByRole('link', { name: 'Ключи API' }).click();
    expect(await viewer.getByRole('button', { name: 'Создать ключ' }).count()).toBe(0);
    expect(await viewer.getByRole('link', { name: 'Отключить…' }).count()).toBe(0);
    await expect.poll(() => viewer.locator('header').textContent()).toContain('Наблюдатель');
    await shot('05-viewer-keys-read-only', viewer);
    const csrf = await viewer.locator('input[name="_csrf"]').first().inputValue();
    const forged = await viewer.request.post(`${base}/admin/keys`, { form: { _csrf: csrf, name: 'forged', scopes: 'recognition' } });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('наблюдатель');
    expect((await h.services.keys.list()).some((k) => k.name === 'forged')).toBe(false);
    await viewer.goto(`${base}/admin/audit`);
    await expect.poll(() => viewer.locator('table').textContent()).toContain('198.51.100.30');
    await shot('06-viewer-audit', viewer);
  });
});
