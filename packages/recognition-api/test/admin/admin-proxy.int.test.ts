import { afterEach, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../src/config.js';
import type { Harness } from '../harness.js';
import { ADMIN_PASSWORD, ADMIN_USER, makeAdminHarness, PanelClient } from './admin-harness.js';

/** TRUST_PROXY for the client address and https, Secure by default, HSTS, per-account lockout. */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const sessionCookie = (res: { headers: Record<string, unknown> }) =>
  ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? []).find((x) => x.startsWith('admin_session='))!;
/** A browser behind the TLS proxy at 127.0.0.1: its address and scheme arrive in X-Forwarded-*. */
const via = (client: string, host = 'admin.example.ru') => ({ 'x-forwarded-for': client, 'x-forwarded-proto': 'https', host });

describe('admin panel behind a proxy', () => {
  it('with TRUST_PROXY the sign-in limit counts the client, not the proxy: one guesser does not lock out everyone', async () => {
    h = await makeAdminHarness({ trustProxy: ['127.0.0.1'], admin: { loginMaxAttempts: 3, loginWindowMs: 60_000, accountMaxFailures: 100 } });
    const guesser = new PanelClient(h.app);
    for (let i = 0; i < 3; i++) expect((await guesser.signIn(ADMIN_USER, 'wrong', via('203.0.113.7'))).statusCode).toBe(401);
    expect((await guesser.signIn(ADMIN_USER, 'wrong', via('203.0.113.7'))).statusCode).toBe(429);
    const admin = new PanelClient(h.app);
    const ok = await admin.signIn(ADMIN_USER, ADMIN_PASSWORD, via('198.51.100.20'));
    expect([ok.statusCode, ok.headers.location]).toEqual([303, '/admin/documents']);
  });

  it('with TRUST_PROXY, https from the proxy makes the cookie Secure and adds HSTS', async () => {
    h = await makeAdminHarness({ trustProxy: 1 });
    const res = await new PanelClient(h.app).get('/admin/login', via('198.51.100.20'));
    expect(sessionCookie(res)).toMatch(/; Secure/);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('without TRUST_PROXY: Secure by default outside loopback; plain http to localhost stays without Secure and HSTS', async () => {
    h = await makeAdminHarness();
    const remote = await new PanelClient(h.app).get('/admin/login', { host: 'admin.example.ru' });
    expect(sessionCookie(remote)).toMatch(/; Secure/);
    const local = await new PanelClient(h.app).get('/admin/login', { host: 'localhost:3100' });
    expect(sessionCookie(local)).not.toMatch(/Secure/);
    expect(local.headers['strict-transport-security']).toBeUndefined();
    // An untrusted peer's X-Forwarded-Proto is ignored: it cannot claim https, nor turn Secure off.
    expect(sessionCookie(await new PanelClient(h.app).get('/admin/login', { ...via('1.2.3.4'), host: 'localhost' }))).not.toMatch(/Secure/);
  });

  it('locks one account after too many wrong passwords from many addresses; the right password then waits for the window', async () => {
    h = await makeAdminHarness({ trustProxy: true, admin: { loginMaxAttempts: 100, loginWindowMs: 15 * 60_000, accountMaxFailures: 5 } });
    for (let i = 0; i < 5; i++) expect((await new PanelClient(h.app).signIn(ADMIN_USER, 'wrong', via(`203.0.113.${i + 1}`))).statusCode).toBe(401);
    const c = new PanelClient(h.app);
    const locked = await c.signIn(ADMIN_USER, ADMIN_PASSWORD, via('198.51.100.20'));
    expect(locked.statusCode).toBe(429);
    expect(locked.body).toContain('Вход в эту учётную запись временно закрыт');
    h.clock.advance(15 * 60_000 + 1);
    expect((await c.signIn(ADMIN_USER, ADMIN_PASSWORD, via('198.51.100.20'))).statusCode).toBe(303);
  });
});

describe('audit log', () => {
  it('records sign-ins (failed too), key and connection changes with user, client address and target; never secrets', async () => {
    h = await makeAdminHarness({ trustProxy: ['127.0.0.1'] });
    const c = new PanelClient(h.app);
    expect((await c.signIn(ADMIN_USER, 'wrong', via('203.0.113.9'))).statusCode).toBe(401);
    expect((await c.signIn(ADMIN_USER, ADMIN_PASSWORD, via('198.51.100.20'))).statusCode).toBe(303);
    await c.get('/admin/keys', via('198.51.100.20'));
    expect((await c.post('/admin/keys', { name: 'Журнал', scopes: ['recognition'] }, { headers: via('198.51.100.20') })).statusCode).toBe(303);
    const key = (await h.services.keys.list()).find((k) => k.name === 'Журнал')!;
    await c.get(`/admin/keys/${key.id}/scopes`, via('198.51.100.20'));
    await c.post(`/admin/keys/${key.id}/scopes`, { scopes: ['recognition', 'edo'] }, { headers: via('198.51.100.20') });
    await c.get('/admin/edo', via('198.51.100.20'));
    const secret = 'a-client-secret-never-logged';
    await c.post(
      '/admin/edo',
      {
        clientId: 'cid',
        clientSecret: secret,
        refreshToken: 'rt-never-logged',
        boxId: 'f6262553-906d-495c-8958-c124dbaa0e2b',
        issuerUrl: 'https://identity.kontur.ru',
        apiBaseUrl: 'https://diadoc-api.kontur.ru',
      },
      { headers: via('198.51.100.20') },
    );
    const entries = await h.services.admin.audit.latest();
    expect(entries.map((a) => [a.action, a.username, a.ip]).reverse()).toEqual([
      ['auth.sign-in-failed', ADMIN_USER, '203.0.113.9'],
      ['auth.sign-in', ADMIN_USER, '198.51.100.20'],
      ['key.create', ADMIN_USER, '198.51.100.20'],
      ['key.scopes', ADMIN_USER, '198.51.100.20'],
      ['edo.save', ADMIN_USER, '198.51.100.20'],
    ]);
    expect(entries[1]).toMatchObject({ target: `Журнал (${key.id})`, detail: 'recognition, edo' });
    const page = await c.get('/admin/audit', via('198.51.100.20'));
    expect(page.body).toContain('Неудачный вход');
    expect(page.body).toContain('Изменены области ключа');
    expect(page.body).toContain('заменены: clientSecret, refreshToken');
    expect(page.body).not.toContain(secret);
    expect(JSON.stringify(entries)).not.toContain('rt-never-logged');
  });
});

describe('audit of refused sign-ins', () => {
  it('a sign-in refused with 429 by the per-address limit is audited with the account tried and the client address', async () => {
    h = await makeAdminHarness({ trustProxy: ['127.0.0.1'], admin: { loginMaxAttempts: 2, loginWindowMs: 60_000, accountMaxFailures: 100 } });
    const guesser = new PanelClient(h.app);
    for (let i = 0; i < 2; i++) expect((await guesser.signIn(ADMIN_USER, 'wrong', via('203.0.113.7'))).statusCode).toBe(401);
    expect((await guesser.signIn('someone-else', 'wrong', via('203.0.113.7'))).statusCode).toBe(429);
    const entries = await h.services.admin.audit.latest();
    expect(entries.map((a) => [a.action, a.username, a.ip, a.target, a.detail])[0]).toEqual([
      'auth.sign-in-failed',
      'someone-else',
      '203.0.113.7',
      'someone-else',
      'RATE_LIMITED',
    ]);
    expect(entries).toHaveLength(3);
  });

  it('a sign-in refused with 429 by the per-account lockout is audited too', async () => {
    h = await makeAdminHarness({ trustProxy: true, admin: { loginMaxAttempts: 100, loginWindowMs: 15 * 60_000, accountMaxFailures: 2 } });
    for (let i = 0; i < 2; i++) await new PanelClient(h.app).signIn(ADMIN_USER, 'wrong', via(`203.0.113.${i + 1}`));
    expect((await new PanelClient(h.app).signIn(ADMIN_USER, ADMIN_PASSWORD, via('198.51.100.20'))).statusCode).toBe(429);
    const [last] = await h.services.admin.audit.latest();
    expect([last!.action, last!.username, last!.ip, last!.detail]).toEqual(['auth.sign-in-failed', ADMIN_USER, '198.51.100.20', 'ACCOUNT_LOCKED']);
  });
});

describe('TRUST_PROXY parsing', () => {
  it('takes none, hops, addresses and CIDR ranges; refuses anything else naming the variable', () => {
    expect([undefined, '', '0', 'false'].map(parseTrustProxy)).toEqual([false, false, false, false]);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    for (const bad of ['11', 'proxy.local', '10.0.0.0/33', '-1']) expect(() => parseTrustProxy(bad)).toThrow(/^TRUST_PROXY/);
  });
});
