import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { randomIds } from '@app/shared';
import { diadocOperatorFactory } from '../../src/edo/diadoc/diadoc-factory.js';
import { EdoConnectionRepo } from '../../src/edo/edo-connection.repo.js';
import { seedEdoConnection } from '../../src/edo/edo-seed.js';
import { EdoSession } from '../../src/edo/edo-session.js';
import { EdoService } from '../../src/edo/edo.service.js';
import { SecretBox } from '@app/shared';
import { makeEdoHarness, type EdoHarness } from './edo-harness.js';

let e: EdoHarness;
afterEach(async () => e.close());

describe('the operator connection: stored sealed, checked by health, faults mapped on routes', () => {
  it('not configured: health 503 not_configured, routes 503 EDO_NOT_CONFIGURED, bad input still 422 first', async () => {
    e = await makeEdoHarness({ connect: false });
    const health = await e.inject('GET', '/api/v1/edo/health');
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'not_configured', authenticated: false, organizations_count: 0, box_id: null });
    const list = await e.inject('GET', '/api/v1/edo/documents?filterCategory=Any.Inbound');
    expect([list.statusCode, list.json().error.code]).toEqual([503, 'EDO_NOT_CONFIGURED']);
    expect(list.json().error.message).toContain('recognition-admin edo set');
    expect((await e.inject('GET', '/api/v1/edo/documents')).statusCode).toBe(422);
    expect(e.sim.requests).toEqual([]);
  });

  it('keeps secrets sealed at rest, never shows them, and persists a rotated refresh token', async () => {
    e = await makeEdoHarness();
    const rows = await e.h.db.query<Record<string, unknown>>('SELECT * FROM edo_connection');
    const raw = JSON.stringify(rows);
    expect(raw).not.toContain(e.sim.clientSecret);
    expect(raw).not.toContain(e.sim.refreshToken);
    expect(String(rows[0]!.client_secret_enc)).toMatch(/^v1\./);
    const shown = await e.h.services.edo.connection.show();
    expect(JSON.stringify(shown)).not.toContain(e.sim.clientSecret);
    expect(shown).toMatchObject({ clientId: e.sim.clientId, boxId: e.sim.boxId, clientSecretSet: true, refreshTokenSet: true, revision: 1 });
    e.sim.idp.rotateRefreshTokens = true;
    expect((await e.inject('GET', '/api/v1/edo/organizations')).statusCode).toBe(200);
    const stored = await e.h.services.edo.repo.get();
    expect(stored!.refreshToken).not.toBe(e.sim.refreshToken);
    expect(stored!.refreshTokenRotatedAt).not.toBeNull();
    e.clock.advance(61 * 60_000);
    expect((await e.inject('GET', '/api/v1/edo/organizations')).statusCode).toBe(200);
  });

  it('a rotated refresh token bumps the revision, so another instance reloads it instead of failing with invalid_grant', async () => {
    e = await makeEdoHarness();
    expect((await e.inject('GET', '/api/v1/edo/organizations')).statusCode).toBe(200); // instance A holds revision 1
    const other = new EdoService(
      new EdoSession(e.h.services.edo.repo, diadocOperatorFactory({ clock: e.clock, timeoutMs: 5000, sleep: async () => {} })),
      randomIds,
      e.clock,
    );
    e.sim.idp.rotateRefreshTokens = true; // each refresh answers a new token and retires the old one
    await other.organizations(); // instance B refreshes: the token rotates, the original is retired
    expect((await e.h.services.edo.repo.get())!.revision).toBe(2);
    e.clock.advance(61 * 60_000); // A's access token expires; it must not refresh with the retired token
    const res = await e.inject('GET', '/api/v1/edo/organizations');
    expect(res.statusCode).toBe(200);
    expect((await e.h.services.edo.repo.get())!.revision).toBe(3);
    expect(await other.organizations()).toHaveProperty('Organizations');
  });

  it('DIADOC_* variables seed only an empty store: a connection edited in the panel survives a restart', async () => {
    e = await makeEdoHarness({ connect: false });
    const env = {
      clientId: e.sim.clientId,
      clientSecret: 'env-secret',
      refreshToken: 'env-token',
      boxId: e.sim.boxId,
      issuerUrl: e.sim.issuerUrl,
      apiBaseUrl: e.sim.apiUrl,
    };
    const logged: string[] = [];
    const log = (msg: string) => void logged.push(msg);
    expect(await seedEdoConnection(e.h.services.edo.repo, e.h.services.edo.connection, env, log)).toBe('stored');
    await e.connect(); // an administrator edits the connection in the panel (another secret and token, same box)
    await e.h.services.edo.connection.set({ ...(await e.h.services.edo.repo.get())!, boxId: e.sim.state.counteragents[0]!.boxGuid });
    const edited = (await e.h.services.edo.repo.get())!;
    expect(await seedEdoConnection(e.h.services.edo.repo, e.h.services.edo.connection, env, log)).toBe('kept-stored');
    const after = (await e.h.services.edo.repo.get())!;
    expect([after.revision, after.boxId, after.refreshToken]).toEqual([edited.revision, edited.boxId, e.sim.refreshToken]);
    expect(logged.at(-1)).toContain('the stored one is used');
  });

  it('a connection sealed under another master key is reported as misconfigured, not leaked or crashed', async () => {
    e = await makeEdoHarness();
    await new EdoConnectionRepo(e.h.db, new SecretBox(randomBytes(32)), e.clock).save({
      operator: 'diadoc',
      clientId: 'c',
      clientSecret: 's',
      refreshToken: 'r',
      boxId: e.sim.boxId,
      issuerUrl: e.sim.issuerUrl,
      apiBaseUrl: e.sim.apiUrl,
      scope: 'Diadoc.PublicAPI',
    });
    const health = (await e.inject('GET', '/api/v1/edo/health')).json();
    expect(health).toMatchObject({ status: 'misconfigured', authenticated: false });
    expect(health.message).toContain('EDO_MASTER_KEY');
  });

  it('a revoked refresh token: health says unauthorized, routes EDO_UNAUTHORIZED telling what to renew', async () => {
    e = await makeEdoHarness();
    e.sim.idp.revokeAll();
    const health = await e.inject('GET', '/api/v1/edo/health');
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'unauthorized', authenticated: false, box_id: e.sim.boxId });
    const res = await e.inject('GET', '/api/v1/edo/employees/me');
    expect([res.statusCode, res.json().error.code]).toEqual([502, 'EDO_UNAUTHORIZED']);
    expect(res.json().error.message).toContain('refresh token');
  });

  it('operator faults on routes: 429 → EDO_RATE_LIMITED with Retry-After, 402 → subscription_required on health', async () => {
    e = await makeEdoHarness();
    e.sim.faults.add({ kind: 'rate-limit', retryAfter: 45, times: 1, path: '/V8/GetNewEvents' });
    const limited = await e.inject('GET', '/api/v1/edo/events');
    expect([limited.statusCode, limited.json().error.code, limited.headers['retry-after']]).toEqual([429, 'EDO_RATE_LIMITED', '45']);
    e.sim.faults.add({ kind: 'subscription-required', times: 1 });
    expect((await e.inject('GET', '/api/v1/edo/health')).json()).toMatchObject({ status: 'subscription_required', authenticated: true });
    e.sim.faults.add({ kind: 'server-error', status: 502 });
    const down = await e.inject('GET', '/api/v1/edo/organizations/current');
    expect([down.statusCode, down.json().error.code]).toEqual([503, 'EDO_UNAVAILABLE']);
  });

  it('a slow operator never hangs a request: EDO_UNAVAILABLE after the timeout; health says unreachable', async () => {
    e = await makeEdoHarness({ timeoutMs: 200 });
    expect((await e.inject('GET', '/api/v1/edo/health')).statusCode).toBe(200);
    e.sim.faults.add({ kind: 'slow', delayMs: 3000, times: 2 });
    const res = await e.inject('GET', '/api/v1/edo/counteragents');
    expect([res.statusCode, res.json().error.code]).toEqual([503, 'EDO_UNAVAILABLE']);
    expect((await e.inject('GET', '/api/v1/edo/health')).json()).toMatchObject({ status: 'unreachable' });
  });

  it('set validates: missing or malformed fields name the field and store nothing', async () => {
    e = await makeEdoHarness({ connect: false });
    const admin = e.h.services.edo.connection;
    await expect(admin.set({ clientId: 'c', clientSecret: 's', refreshToken: 'r' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'boxId: is required',
    });
    await expect(admin.set({ clientId: 'c', clientSecret: 's', refreshToken: 'r', boxId: 'box' })).rejects.toMatchObject({
      message: expect.stringMatching(/^boxId:/),
    });
    await expect(
      admin.set({ clientId: 'c', clientSecret: 's', refreshToken: 'r', boxId: e.sim.boxId, apiBaseUrl: 'http://diadoc.example.com' }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/^apiBaseUrl: must be https/) });
    expect(await admin.show()).toBeNull();
  });
});
