import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEdoRig, rejection, type EdoRig } from './edo-fixtures.js';

let rig: EdoRig;
beforeEach(async () => (rig = await makeEdoRig()));
afterEach(async () => rig.close());

describe('Diadoc adapter: bearer tokens from the OIDC refresh-token grant', () => {
  it('gets one token and reuses it while it is valid', async () => {
    await rig.operator.listOrganizations();
    rig.clock.advance(50 * 60_000);
    await rig.operator.listOrganizations();
    expect(rig.sim.idp.issuedAccessTokens).toBe(1);
  });

  it('refreshes proactively by expires_in (1 hour), before the operator would refuse the old token', async () => {
    await rig.operator.listOrganizations();
    rig.clock.advance(60 * 60_000);
    await rig.operator.listOrganizations();
    expect(rig.sim.idp.issuedAccessTokens).toBe(2);
  });

  it('on a 401 refreshes once and retries once', async () => {
    await rig.operator.listOrganizations();
    rig.sim.faults.add({ kind: 'expired-token', times: 1 });
    const orgs = await rig.operator.listOrganizations();
    expect((orgs.Organizations as unknown[]).length).toBe(1);
    expect(rig.sim.idp.issuedAccessTokens).toBe(2);
  });

  it('a second 401 after the refresh is EDO_UNAUTHORIZED (no loop)', async () => {
    rig.sim.faults.add({ kind: 'expired-token', times: 2 });
    const err = await rejection(rig.operator.listOrganizations());
    expect(err.code).toBe('EDO_UNAUTHORIZED');
    expect(err.message).toContain('Diadoc answered 401 Http.Unauthorized');
    expect(rig.sim.idp.issuedAccessTokens).toBe(2);
  });

  it('persists a rotated refresh token and goes on with it', async () => {
    rig.sim.idp.rotateRefreshTokens = true;
    await rig.operator.listOrganizations();
    rig.clock.advance(61 * 60_000);
    await rig.operator.listOrganizations();
    expect(rig.rotated).toHaveLength(2);
    expect(rig.rotated[0]).not.toBe(rig.sim.refreshToken);
  });

  it('a revoked refresh token is EDO_UNAUTHORIZED telling what to renew', async () => {
    rig.sim.idp.revokeAll();
    const err = await rejection(rig.operator.getMyEmployee());
    expect(err.code).toBe('EDO_UNAUTHORIZED');
    expect(err.message).toMatch(/invalid_grant.*new refresh token.*recognition-admin edo set --refresh-token/);
  });

  it('a wrong client secret is EDO_UNAUTHORIZED naming the client credentials', async () => {
    const err = await rejection(rig.makeOperator({ clientSecret: 'wrong' }).listOrganizations());
    expect(err.code).toBe('EDO_UNAUTHORIZED');
    expect(err.message).toContain('client id or secret');
  });
});

describe('Diadoc adapter: operator faults map to stable codes, never a hang', () => {
  it('402 → EDO_SUBSCRIPTION_REQUIRED, 403 → EDO_FORBIDDEN, with the operator code and text', async () => {
    rig.sim.faults.add({ kind: 'subscription-required', times: 1 });
    const paid = await rejection(rig.operator.listOrganizations());
    expect([paid.code, paid.status]).toEqual(['EDO_SUBSCRIPTION_REQUIRED', 402]);
    expect(paid.message).toContain('402 PaymentRequired: The box has no active Diadoc API subscription');
    rig.sim.faults.add({ kind: 'forbidden', times: 1 });
    expect((await rejection(rig.operator.listEmployees(1, 10))).code).toBe('EDO_FORBIDDEN');
  });

  it('429 with an HTML body and a long Retry-After → EDO_RATE_LIMITED with that Retry-After, without waiting', async () => {
    rig.sim.faults.add({ kind: 'rate-limit', retryAfter: 30 });
    const err = await rejection(rig.operator.getEvents({}));
    expect([err.code, err.status, err.retryAfter]).toEqual(['EDO_RATE_LIMITED', 429, 30]);
    expect(err.message).toContain('HTML page from a proxy: 429 Too Many Requests');
    expect(rig.sleeps).toEqual([]);
  });

  it('429 with a short Retry-After on an idempotent call: waits as told and retries', async () => {
    rig.sim.faults.add({ kind: 'rate-limit', retryAfter: 1, times: 1 });
    const page = await rig.operator.getEvents({ limit: 1 });
    expect((page.Events as unknown[]).length).toBe(1);
    expect(rig.sleeps).toEqual([1000]);
  });

  it('5xx on an idempotent call: retried with exponential back-off, then EDO_UNAVAILABLE', async () => {
    rig.sim.faults.add({ kind: 'server-error', status: 503 });
    const err = await rejection(rig.operator.listCounteragents({}));
    expect([err.code, err.status]).toEqual(['EDO_UNAVAILABLE', 503]);
    expect(err.message).toContain('503 InternalServerError');
    expect(rig.sleeps).toEqual([250, 500]);
  });

  it('one 500 on an idempotent call is absorbed by the retry', async () => {
    rig.sim.faults.add({ kind: 'server-error', times: 1 });
    expect((await rig.operator.currentOrganization()).Inn).toBe(rig.sim.state.ours.inn);
    expect(rig.sleeps).toEqual([250]);
  });

  it('5xx on a non-idempotent call (Delete) is not retried and changes nothing', async () => {
    const d = rig.sim.state.documents[0]!;
    rig.sim.faults.add({ kind: 'server-error', times: 1, path: '/Delete' });
    expect((await rejection(rig.operator.deleteDocument(d.messageId))).code).toBe('EDO_UNAVAILABLE');
    expect(rig.sleeps).toEqual([]);
    expect(d.isDeleted).toBe(false);
  });

  it('a slow operator times out as EDO_UNAVAILABLE and is not retried', async () => {
    const op = rig.makeOperator({ timeoutMs: 150 });
    await op.listOrganizations();
    rig.sim.faults.add({ kind: 'slow', delayMs: 3000, times: 1 });
    const err = await rejection(op.listOrganizations());
    expect(err.code).toBe('EDO_UNAVAILABLE');
    expect(err.message).toContain('did not answer in time');
    expect(rig.sleeps).toEqual([]);
  });

  it('an unreachable operator is EDO_UNAVAILABLE after the retries', async () => {
    const err = await rejection(rig.makeOperator({ apiUrl: 'http://127.0.0.1:9' }).listOrganizations());
    expect(err.code).toBe('EDO_UNAVAILABLE');
    expect(err.message).toContain('is unreachable');
    expect(rig.sleeps).toEqual([250, 500]);
  });
});
