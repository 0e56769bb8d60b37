import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from '../harness.js';
import { ADMIN_PASSWORD, ADMIN_USER, makeAdminHarness, PanelClient } from './admin-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await makeAdminHarness({ admin: { loginMaxAttempts: 4, loginWindowMs: 60_000, idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 } });
});
afterAll(() => h.close());
// Every test starts in a fresh sign-in rate-limit window (4 attempts a minute here).
beforeEach(() => h.clock.advance(61_000));

describe('admin panel: sign-in and sessions', () => {
  it('redirects every page to sign-in without a session, and an API key does not open it', async () => {
    for (const url of ['/admin', '/admin/keys', '/admin/edo', '/admin/documents', '/admin/documents/doc_x', '/admin/nope']) {
      const res = await h.app.inject({ method: 'GET', url, headers: { 'x-api-key': h.keyA } });
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location, url).toMatch(/^\/admin\/login/);
    }
    const post = await h.app.inject({
      method: 'POST',
      url: '/admin/keys',
      headers: { 'x-api-key': h.keyA, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=x&scopes=recognition',
    });
    expect(post.statusCode).toBe(303);
    expect((await h.services.keys.list()).map((k) => k.name)).not.toContain('x');
  });

  it('serves the sign-in page with a CSP, labelled inputs and an HttpOnly SameSite=Strict cookie', async () => {
    const c = new PanelClient(h.app);
    const res = await c.get('/admin/login');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('<label for="username">');
    expect(res.body).toContain('<label for="password">');
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((x) => x.startsWith('admin_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/admin/);
    expect(cookie).not.toMatch(/Secure/);
    const css = await h.app.inject({ method: 'GET', url: '/admin/assets/admin.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('refuses a wrong password with a readable message and keeps the page reachable', async () => {
    const c = new PanelClient(h.app);
    const res = await c.signIn('admin', 'wrong password!');
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('Неверное имя пользователя или пароль.');
    expect(res.body).toContain('value="admin"');
    expect((await c.get('/admin/keys')).statusCode).toBe(303);
  });

  it('refuses a sign-in POST without the CSRF token', async () => {
    const c = new PanelClient(h.app);
    await c.get('/admin/login');
    const res = await c.post('/admin/login', { username: 'admin', password: ADMIN_PASSWORD }, { csrf: false });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Форма устарела');
    expect((await c.get('/admin/keys')).statusCode).toBe(303);
  });

  it('signs in, reaches the sections, signs out; the old cookie is dead', async () => {
    const c = new PanelClient(h.app);
    const res = await c.signIn();
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/documents');
    const copied = c.cookie;
    for (const url of ['/admin/keys', '/admin/edo', '/admin/documents']) expect((await c.get(url)).statusCode, url).toBe(200);
    const out = await c.post('/admin/logout');
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/admin/login?signedOut=1');
    const replay = await h.app.inject({ method: 'GET', url: '/admin/keys', headers: { cookie: copied } });
    expect(replay.statusCode).toBe(303);
  });

  it('a POST of a signed-in session without the CSRF token is refused and changes nothing', async () => {
    const c = new PanelClient(h.app);
    await c.signIn();
    await c.get('/admin/keys');
    const before = (await h.services.keys.list()).length;
    const res = await c.post('/admin/keys', { name: 'Без токена', scopes: 'recognition' }, { csrf: false });
    expect(res.statusCode).toBe(403);
    const forged = await c.post('/admin/keys', { name: 'Чужой токен', scopes: 'recognition', _csrf: 'forged-token' });
    expect(forged.statusCode).toBe(403);
    expect((await h.services.keys.list()).length).toBe(before);
  });

  it('ends a session after 30 idle minutes and after 12 hours (injected clock)', async () => {
    const c = new PanelClient(h.app);
    await c.signIn();
    h.clock.advance(29 * 60_000);
    expect((await c.get('/admin/keys')).statusCode).toBe(200);
    h.clock.advance(29 * 60_000);
    expect((await c.get('/admin/keys')).statusCode).toBe(200); // active: the idle timer restarted
    h.clock.advance(31 * 60_000);
    const idle = await c.get('/admin/keys');
    expect(idle.statusCode).toBe(303);
    expect(idle.headers.location).toBe('/admin/login?next=%2Fadmin%2Fkeys');

    await c.signIn();
    for (let i = 0; i < 25; i++) {
      h.clock.advance(29 * 60_000);
      const r = await c.get('/admin/documents');
      if (r.statusCode !== 200) {
        expect(i * 29).toBeGreaterThanOrEqual(11 * 60);
        return;
      }
    }
    throw new Error('session outlived 12 hours');
  });

  it('goes back to the requested page after sign-in, but never off the panel', async () => {
    const c = new PanelClient(h.app);
    await c.get('/admin/login?next=%2Fadmin%2Fedo');
    const res = await c.post('/admin/login', { username: 'admin', password: ADMIN_PASSWORD, next: '/admin/edo' });
    expect(res.headers.location).toBe('/admin/edo');
    const c2 = new PanelClient(h.app);
    await c2.get('/admin/login');
    const evil = await c2.post('/admin/login', { username: 'admin', password: ADMIN_PASSWORD, next: 'https://evil.example/admin' });
    expect(evil.headers.location).toBe('/admin/documents');
  });

  it('rate-limits sign-in attempts per address, then lets them through after the window', async () => {
    const c = new PanelClient(h.app);
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await c.signIn('admin', `wrong ${i}`)).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 429]);
    const limited = await c.signIn();
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain('Слишком много попыток входа');
    expect(limited.headers['retry-after']).toBeDefined();
    h.clock.advance(61_000);
    expect((await c.signIn()).statusCode).toBe(303);
  });
});

describe('admin panel behind https', () => {
  it('marks the session cookie Secure with ADMIN_COOKIE_SECURE=1 (TLS ended at a proxy)', async () => {
    const hs = await makeAdminHarness({ admin: { cookieSecure: true } });
    try {
      const res = await hs.app.inject({ method: 'GET', url: '/admin/login' });
      const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((x) => x.startsWith('admin_session='))!;
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/HttpOnly/i);
    } finally {
      await hs.close();
    }
  });
});

describe('admin panel: password change', () => {
  it('checks the current password, the length and the repeat; changes it and ends the other sessions', async () => {
    const other = new PanelClient(h.app);
    await other.signIn();
    const c = new PanelClient(h.app);
    await c.signIn();
    expect((await c.get('/admin/account')).body).toContain('Смена пароля');
    const wrong = await c.post('/admin/account/password', {
      currentPassword: 'nope',
      newPassword: 'a brand new passphrase',
      repeatPassword: 'a brand new passphrase',
    });
    expect([wrong.statusCode, wrong.body.includes('Текущий пароль неверен.')]).toEqual([422, true]);
    const short = await c.post('/admin/account/password', { currentPassword: ADMIN_PASSWORD, newPassword: 'short', repeatPassword: 'short' });
    expect([short.statusCode, short.body.includes('не короче 12 символов')]).toEqual([422, true]);
    const differ = await c.post('/admin/account/password', {
      currentPassword: ADMIN_PASSWORD,
      newPassword: 'a brand new passphrase',
      repeatPassword: 'a brand new passphrase!',
    });
    expect([differ.statusCode, differ.body.includes('Пароли не совпадают.')]).toEqual([422, true]);
    const ok = await c.post('/admin/account/password', {
      currentPassword: ADMIN_PASSWORD,
      newPassword: 'a brand new passphrase',
      repeatPassword: 'a brand new passphrase',
    });
    expect([ok.statusCode, ok.headers.location]).toEqual([303, '/admin/account?changed=1']);
    expect((await c.get('/admin/account?changed=1')).body).toContain('Пароль изменён');
    expect((await other.get('/admin/keys')).statusCode).toBe(303); // the other browser's session ended
    h.clock.advance(61_000);
    expect((await new PanelClient(h.app).signIn(ADMIN_USER, ADMIN_PASSWORD)).statusCode).toBe(401);
    h.clock.advance(61_000);
    expect((await new PanelClient(h.app).signIn(ADMIN_USER, 'a brand new passphrase')).statusCode).toBe(303);
    await h.services.admin.auth.setPassword(ADMIN_USER, ADMIN_PASSWORD); // later tests sign in with the old one
  });
});
