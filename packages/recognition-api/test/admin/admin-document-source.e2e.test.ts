import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@app/admin-web/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPage, recognizeForm } from '../fixtures.js';
import { makeEdoHarness, type EdoHarness } from '../edo/edo-harness.js';
import { ADMIN_PASSWORD, ADMIN_USER } from './admin-harness.js';

// The document page shows where a document came from and links an imported one to its operator message (issue 24).

const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/admin/', import.meta.url));

let e: EdoHarness;
let base = '';
let browser: Browser;
let page: Page;
let importedId = '';
let paperId = '';

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  e = await makeEdoHarness();
  await e.h.services.admin.auth.setPassword(ADMIN_USER, ADMIN_PASSWORD);
  const d = e.sim.state.documents.find((x) => x.direction === 'Inbound')!;
  const imported = await e.inject('POST', `/api/v1/edo/documents/${d.messageId}/${d.entityId}/import`, { key: e.keys.both, body: {} });
  expect(imported.statusCode).toBe(201);
  importedId = imported.json().id;
  const paper = await e.h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': e.keys.both },
    payload: recognizeForm([await pngPage()], { priority: 'high' }),
  });
  paperId = paper.json().id;
  base = await e.h.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'ru-RU' })).newPage();
  await page.goto(`${base}/admin/login`);
  await page.getByLabel('Имя пользователя').fill(ADMIN_USER);
  await page.getByLabel('Пароль').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL(/\/admin\//);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await e?.close();
});

describe('document source in the panel', () => {
  it('an imported document shows EDO and links to its operator message, which shows the operator’s card', async () => {
    const d = e.sim.state.documents.find((x) => x.direction === 'Inbound')!;
    await page.goto(`${base}/admin/documents/${importedId}`);
    const source = page.locator('dd.source');
    expect(await source.textContent()).toContain('ЭДО (Диадок), формализованный XML');
    await page.screenshot({ path: `${ARTIFACTS}source-01-imported.png`, fullPage: true });
    await page.getByRole('link', { name: 'сообщение оператора' }).click();
    await page.waitForURL(`${base}/admin/edo/documents/${d.messageId}/${d.entityId}`);
    expect(await page.getByRole('heading', { name: 'Документ в Диадоке', level: 1 }).isVisible()).toBe(true);
    const facts = await page.locator('dl.facts').textContent();
    expect(facts).toContain(d.number);
    expect(facts).toContain(d.date);
    expect(facts).toContain('входящий');
    await page.screenshot({ path: `${ARTIFACTS}source-02-operator-message.png`, fullPage: true });
  });

  it('an imported formalized document offers its original XML, byte for byte as the operator gave it, not cached', async () => {
    const d = e.sim.state.documents.find((x) => x.direction === 'Inbound')!;
    await page.goto(`${base}/admin/documents/${importedId}`);
    const link = page.getByRole('link', { name: 'Исходный XML' });
    await link.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}source-03-original-xml.png`, fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`${importedId}-source.xml`);
    expect(readFileSync((await download.path())!).equals(d.content)).toBe(true);
    const res = await page.request.get(`${base}/admin/documents/${importedId}/source.xml`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/xml; charset=windows-1251');
    expect(res.headers()['cache-control']).toBe('no-store');
    expect(res.headers()['content-disposition']).toBe(`attachment; filename="${importedId}-source.xml"`);
  });

  it('a paper upload shows paper and has no original XML; an unknown operator message is a 404 page with the reason', async () => {
    await page.goto(`${base}/admin/documents/${paperId}`);
    expect(await page.locator('dd.source').textContent()).toContain('бумага');
    expect(await page.getByRole('link', { name: 'Исходный XML' }).count()).toBe(0);
    expect((await page.request.get(`${base}/admin/documents/${paperId}/source.xml`)).status()).toBe(404);
    const res = await page.goto(`${base}/admin/edo/documents/00000000-0000-4000-8000-000000000001/00000000-0000-4000-8000-000000000002`);
    expect(res?.status()).toBe(404);
    expect(await page.locator('p.error[role=alert]').textContent()).toContain('Оператор не отдал документ');
  });
});
