import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@app/shared';
import { startLoyaltySimulator, type RunningSimulator } from '../src/index.js';

let sim: RunningSimulator;
let clock: ManualClock;
const P = '/api/1/loyalty/iiko';

beforeEach(async () => {
  clock = new ManualClock('2026-11-23T09:00:00Z');
  sim = await startLoyaltySimulator({
    config: {
      apiLogins: ['login-a', 'login-b'],
      organizations: ['org'],
      programs: [],
      coupons: [{ code: 'W', amountMinor: 20000, posDiscountId: 'd' }],
      guests: [{ phone: '+79990000001', bonusBalanceMinor: 50000, accrualPercent: 5 }],
      certificates: [],
      faults: { writeLimitPerMinute: 2 },
    },
    clock,
  });
});
afterEach(() => sim.close());

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(sim.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  // any: answer bodies differ per route and the assertions read them loosely.
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}
const token = async (apiLogin = 'login-a') => (await post('/api/1/access_token', { apiLogin })).body.token as string;

describe('loyalty simulator over HTTP', () => {
  it('requires a Bearer token from /api/1/access_token that expires after an hour', async () => {
    expect((await post('/api/1/access_token', { apiLogin: 'nope' })).status).toBe(401);
    expect((await post(`${P}/coupons/info`, { organizationId: 'org', number: 'W' })).body).toMatchObject({ error: 'UNAUTHORIZED' });
    const t = await token();
    expect((await post(`${P}/coupons/info`, { organizationId: 'org', number: 'W' }, t)).body).toEqual({
      exist: true,
      status: 'active',
      percent: null,
      sum: 200,
      posDiscountId: 'd',
    });
    clock.advance(3600_000);
    expect((await post(`${P}/coupons/info`, { organizationId: 'org', number: 'W' }, t)).status).toBe(401);
  });

  it('shows wallets in rubles and answers 429 with Retry-After per login', async () => {
    const [a, b] = [await token('login-a'), await token('login-b')];
    const info = await post(`${P}/customer/info`, { organizationId: 'org', type: 'phone', phone: '+79990000001' }, a);
    expect(info.body.walletBalances).toEqual([{ id: expect.any(String), name: 'Bonus', type: 'bonus', balance: 500 }]);
    expect(info.body).toMatchObject({ categories: [], coupons: [] });
    const hold = (t: string, key: string) =>
      post(
        `${P}/customer/wallet/hold`,
        { organizationId: 'org', customerId: info.body.id, walletId: info.body.walletBalances[0].id, sum: 1.05, idempotencyKey: key },
        t,
      );
    expect((await hold(a, 'k1')).body).toEqual({ transactionId: expect.any(String), sum: 1.05, status: 'held' });
    await hold(a, 'k2');
    clock.advance(10_000);
    const limited = await hold(a, 'k3');
    expect([limited.status, limited.headers.get('retry-after'), limited.body.error]).toEqual([429, '50', 'WRITE_LIMIT']);
    expect((await hold(b, 'k3')).status).toBe(200);
  });

  it('switches faults at run time through POST /admin/faults', async () => {
    const t = await token();
    const calc = () => post(`${P}/calculate`, { organizationId: 'org', order: { items: [] } }, t);
    expect((await calc()).status).toBe(200);
    const set = await post('/admin/faults', { status5xx: 502, only: ['calculate'] });
    expect(set.body.faults).toEqual({ writeLimitPerMinute: 2, status5xx: 502, only: ['calculate'] });
    expect((await calc()).status).toBe(502);
    expect((await post(`${P}/coupons/info`, { organizationId: 'org', number: 'W' }, t)).status).toBe(200);
    await post('/admin/faults', { status5xx: 0 });
    expect((await calc()).status).toBe(200);
  });

  it('answers 400 BAD_REQUEST for a malformed body and 403 for an organization without loyalty', async () => {
    const t = await token();
    expect((await post(`${P}/calculate`, { organizationId: 'org' }, t)).body.error).toBe('BAD_REQUEST');
    const r = await post(`${P}/calculate`, { organizationId: 'elsewhere', order: { items: [] } }, t);
    expect([r.status, r.body.error]).toEqual([403, 'ORGANIZATION_NOT_CONNECTED']);
  });
});
