import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ManualClock, SequentialIds } from '@app/shared';
import { LoyaltyEngine, loadConfigFile, parseConfig, WriteLimiter, type SimulatorConfig } from '../src/index.js';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const l = (productId: string, lineTotalMinor: number) => ({ productId, quantityMilli: 1000, unitPriceMinor: lineTotalMinor, lineTotalMinor });

function engine(over: Partial<SimulatorConfig> = {}, clock = new ManualClock()) {
  const cfg = parseConfig({ apiLogins: ['x'], organizations: ['o'], programs: [], coupons: [], guests: [], certificates: [], ...over });
  return new LoyaltyEngine(cfg, clock, new SequentialIds());
}

describe('demo config', () => {
  it('holds what the demo needs', () => {
    const c = loadConfigFile(fileURLToPath(new URL('../config/demo.json', import.meta.url)));
    expect(c.allOrganizations).toBe(true);
    expect(c.programs).toEqual([
      expect.objectContaining({ type: 'percent', percent: 10, minSubtotalMinor: 150000, posDiscountId: expect.any(String) }),
    ]);
    expect(c.coupons.map((x) => [x.code, x.amountMinor, x.posDiscountId === null])).toEqual([
      ['WELCOME200', 20000, false],
      ['UNMAPPED50', 5000, true],
    ]);
    expect(c.guests).toEqual([expect.objectContaining({ phone: '+79990000001', bonusBalanceMinor: 50000 })]);
    expect(c.certificates).toEqual([{ serial: 'CERT-1000', balanceMinor: 100000 }]);
    const e = new LoyaltyEngine(c, new ManualClock(), new SequentialIds());
    expect(e.calculate({ organizationId: 'any-org-id', lines: [l(A, 150000)] }).programDiscountMinor).toBe(15000);
  });
});

describe('parseConfig', () => {
  it('names the bad path', () => {
    expect(() => parseConfig({ apiLogins: [], programs: [], coupons: [], guests: [], certificates: [], allOrganizations: true })).toThrow(
      /apiLogins/,
    );
    expect(() =>
      parseConfig({
        apiLogins: ['x'],
        programs: [],
        coupons: [],
        guests: [{ phone: '89990000001', bonusBalanceMinor: 1, accrualPercent: 1 }],
        certificates: [],
        allOrganizations: true,
      }),
    ).toThrow(/guests/);
  });

  it('refuses a coupon with both or neither of percent and amount, and a config without organizations', () => {
    const base = { apiLogins: ['x'], programs: [], guests: [], certificates: [], allOrganizations: true };
    expect(() => parseConfig({ ...base, coupons: [{ code: 'C', percent: 5, amountMinor: 100, posDiscountId: null }] })).toThrow(/exactly one/);
    expect(() => parseConfig({ ...base, allOrganizations: undefined, coupons: [] })).toThrow(/organizations/);
  });
});

describe('LoyaltyEngine.calculate', () => {
  it('applies a category program to its lines only, rounding a percent down', () => {
    const e = engine({ programs: [{ id: 'cat', name: 'c', type: 'percent', percent: 12.5, productIds: [B], posDiscountId: 'd' }] });
    const r = e.calculate({ organizationId: 'o', lines: [l(A, 100000), l(B, 1001)] });
    expect(r.programDiscountMinor).toBe(125); // 12.5 % of 10.01 RUB = 125.125 kopecks
  });

  it('caps the sum of discounts at the subtotal and the coupon at what is left', () => {
    const e = engine({
      programs: [
        { id: 'f', name: 'f', type: 'fixed', amountMinor: 700, posDiscountId: 'd' },
        { id: 'g', name: 'g', type: 'fixed', amountMinor: 700, posDiscountId: 'd' },
      ],
      coupons: [{ code: 'HALF', percent: 50, posDiscountId: 'c' }],
    });
    const r = e.calculate({ organizationId: 'o', lines: [l(A, 1000)], coupon: 'HALF' });
    expect(r.discounts.map((d) => d.amountMinor)).toEqual([700, 300]);
    expect(r.coupon).toEqual({ status: 'applied', discountMinor: 0 });
  });

  it('computes the coupon after program discounts and excludes the delivery fee from bonus maxSpend', () => {
    const e = engine({
      programs: [{ id: 'p', name: 'p', type: 'percent', percent: 10, posDiscountId: 'd' }],
      coupons: [{ code: 'C10', percent: 10, posDiscountId: 'c' }],
      guests: [{ phone: '+79990000001', bonusBalanceMinor: 1_000_000, accrualPercent: 0 }],
    });
    const r = e.calculate({ organizationId: 'o', phone: '+79990000001', lines: [l(A, 10000)], coupon: 'c10', deliveryFeeMinor: 5000 });
    expect([r.programDiscountMinor, r.coupon.discountMinor, r.bonus.maxSpendMinor]).toEqual([1000, 900, 8100]);
  });

  it('honours coupon validity windows and minimum order by the injected clock', () => {
    const clock = new ManualClock('2026-11-23T09:00:00Z');
    const e = engine(
      {
        coupons: [
          {
            code: 'WIN',
            amountMinor: 100,
            validFrom: '2026-11-24T00:00:00Z',
            validTo: '2026-11-25T00:00:00Z',
            minSubtotalMinor: 500,
            posDiscountId: 'c',
          },
        ],
      },
      clock,
    );
    const calc = (total: number) => e.calculate({ organizationId: 'o', lines: [l(A, total)], coupon: 'WIN' }).coupon;
    expect(calc(1000).reason).toBe('not_started');
    clock.set('2026-11-24T12:00:00+03:00');
    expect(calc(1000).status).toBe('applied');
    expect(calc(499).reason).toBe('min_order');
    clock.set('2026-11-25T00:00:00Z');
    expect(calc(1000).reason).toBe('expired');
  });

  it('treats an expired certificate as invalid', () => {
    const clock = new ManualClock('2026-11-23T09:00:00Z');
    const e = engine({ certificates: [{ serial: 'S', balanceMinor: 100, validTo: '2026-11-23T10:00:00Z' }] }, clock);
    expect(e.calculate({ organizationId: 'o', lines: [], certificate: { serial: 'S', amountMinor: 50 } }).certificate?.status).toBe('available');
    clock.advance(3600_000);
    expect(e.calculate({ organizationId: 'o', lines: [], certificate: { serial: 'S', amountMinor: 50 } }).certificate).toEqual({
      status: 'invalid',
      availableMinor: 0,
    });
  });
});

describe('WriteLimiter', () => {
  it('allows N writes per sliding minute per key and tells when the next slot frees', () => {
    const clock = new ManualClock();
    const w = new WriteLimiter(clock, () => 2);
    expect([w.take('k'), w.take('k'), w.take('other')]).toEqual([null, null, null]);
    expect(w.take('k')).toBe(60);
    clock.advance(59_500);
    expect(w.take('k')).toBe(1);
    clock.advance(500);
    expect(w.take('k')).toBeNull();
  });
});
