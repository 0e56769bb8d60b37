import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, type World } from '../harness.js';
import { ADMIN, addConsoleAccounts, ConsoleClient, SUPPORT } from './console-client.js';

describe('support console: sign-in, roles, CSRF, audit (issue 26)', () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
    await addConsoleAccounts(w);
  });
  afterAll(() => w.app.close());

  it('sends an anonymous visitor to the sign-in page and keeps the console out of the OpenAPI document', async () => {
    const c = new ConsoleClient(w.app);
    const res = await c.get('/console/orders');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/login?next=%2Fconsole%2Forders');
    const login = await c.get('/console/login');
    expect(login.statusCode).toBe(200);
    expect(login.headers['content-security-policy']).toContain("default-src 'none'");
    expect(login.body).toContain('Консоль поддержки');
    const doc = (await w.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/console'))).toEqual([]);
  });

  it('signs an admin in with an HttpOnly SameSite=Strict cookie scoped to /console and shows every section', async () => {
    const c = new ConsoleClient(w.app);
    const res = await c.signIn(ADMIN);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/orders');
    expect(String(res.headers['set-cookie'])).toMatch(/console_session=.*Path=\/console.*HttpOnly.*SameSite=Strict/);
    const home = await c.get('/console/home');
    expect(home.statusCode).toBe(200);
    for (const href of ['/console/audit', '/console/users']) expect(home.body).toContain(`href="${href}"`);
    expect((await c.get('/console/audit')).statusCode).toBe(200);
    expect((await c.get('/console/users')).statusCode).toBe(200);
  });

  it('refuses the admin pages to a support account (403) and hides their links', async () => {
    const c = new ConsoleClient(w.app);
    expect((await c.signIn(SUPPORT)).statusCode).toBe(303);
    const home = await c.get('/console/home');
    expect(home.statusCode).toBe(200);
    expect(home.body).not.toContain('href="/console/audit"');
    expect(home.body).not.toContain('href="/console/users"');
    expect(home.body).toContain('Поддержка');
    for (const url of ['/console/audit', '/console/users']) {
      const res = await c.get(url);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('только администратору');
    }
    const create = await c.post('/console/users', { username: 'intruder', password: 'long enough password', role: 'admin' });
    expect(create.statusCode).toBe(403);
    expect(await w.services.consoleCore.auth.listUsers()).not.toContainEqual(expect.objectContaining({ username: 'intruder' }));
  });

  it('refuses a form without its CSRF token and changes nothing', async () => {
    const c = new ConsoleClient(w.app);
    await c.signIn(ADMIN);
    await c.get('/console/users');
    const res = await c.post('/console/users', { username: 'no-token', password: 'long enough password', role: 'support' }, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(await w.services.consoleCore.auth.listUsers()).not.toContainEqual(expect.objectContaining({ username: 'no-token' }));
  });

  it('lets an admin create a support account, audits it with who, what and from where, and signs out', async () => {
    const c = new ConsoleClient(w.app);
    await c.signIn(ADMIN);
    await c.get('/console/users');
    const res = await c.post('/console/users', { username: 'night-desk', password: 'a long night password', role: 'support' });
    expect(res.statusCode).toBe(303);
    const users = await w.services.consoleCore.auth.listUsers();
    expect(users).toContainEqual(expect.objectContaining({ username: 'night-desk', role: 'support' }));
    // the ManualClock stands still: every entry has the same time, so look the action up rather than take the first
    const audit = await w.services.consoleCore.audit.latest(50);
    expect(audit.find((a) => a.action === 'user.create')).toMatchObject({
      username: ADMIN.username,
      ip: '127.0.0.1',
      action: 'user.create',
      target: 'night-desk',
      detail: 'support',
    });
    const page = await c.get('/console/audit');
    expect(page.body).toContain('Создана учётная запись');
    const out = await c.post('/console/logout');
    expect(out.headers.location).toBe('/console/login?signedOut=1');
    expect((await c.get('/console/home')).statusCode).toBe(303);
  });

  it('counts a wrong password as a failed sign-in in the audit log', async () => {
    const c = new ConsoleClient(w.app);
    const res = await c.signIn({ username: SUPPORT.username, password: 'wrong password here' });
    expect(res.statusCode).toBe(401);
    const audit = await w.services.consoleCore.audit.latest(50);
    expect(audit.find((a) => a.action === 'auth.sign-in-failed')).toMatchObject({
      target: SUPPORT.username,
      ip: '127.0.0.1',
      detail: 'BAD_CREDENTIALS',
    });
  });
});
