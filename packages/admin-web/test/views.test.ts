import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_WEB_VIEWS, layeredEta } from '../src/views.js';

const dir = mkdtempSync(join(tmpdir(), 'admin-web-views-'));
const own = join(dir, 'views');
mkdirSync(own);
writeFileSync(join(own, 'page.eta'), "<% layout('./layout', { ...it, title: 'Страница' }) %><p>своя страница</p>");
writeFileSync(join(dir, 'secret.eta'), 'outside');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// What installAdminWeb puts in the view context (plugin.ts defaultContext) plus what render() adds.
const context = {
  brand: 'Сервис',
  base: '/admin',
  panelName: 'Панель администратора',
  nav: [{ href: '/admin/x', label: 'Раздел', section: 'x' }],
  section: 'x',
  user: 'u',
  role: 'viewer',
  csrfToken: 't',
};
const h = { role: (r: string) => r };

describe('layeredEta', () => {
  it("renders a service's page inside the package's layout", () => {
    const html = layeredEta([own, ADMIN_WEB_VIEWS]).render('page', { ...context, h });
    expect(html).toContain('<p>своя страница</p>');
    expect(html).toContain('Страница — Панель администратора');
    expect(html).toContain('href="/admin/x" aria-current="page"');
    expect(html).toContain('/admin/assets/admin.css');
  });

  it("falls back to the package's own pages and refuses a name outside the folders", () => {
    const eta = layeredEta([own, ADMIN_WEB_VIEWS]);
    expect(eta.render('login', { ...context, h, user: null, username: '', next: '/admin', error: null, notice: null })).toContain('Вход в панель');
    expect(() => eta.render('../secret', { ...context, h })).toThrow(/none of the views folders/);
  });
});
