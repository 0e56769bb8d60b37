import type { SimulatorConfig } from '@app/loyalty-simulator';
import type { CalculateLine } from '../../src/loyalty/loyalty.port.js';

/** Test data shared by the adapter and fake tests (and usable by checkout/orders tests). */
export const LOYALTY_ORG = 'org-connected';
export const LOYALTY_OTHER_ORG = 'org-not-connected';
export const LOYALTY_LOGIN = 'test-login';
export const GUEST_PHONE = '+79990000001';
export const POOR_PHONE = '+79990000002';
export const UNKNOWN_PHONE = '+79990000099';
export const PIZZA = '11111111-1111-4111-8111-111111111111';
export const SODA = '22222222-2222-4222-8222-222222222222';
export const GIFT_DESSERT = '33333333-3333-4333-8333-333333333333';

/**
 * A loyalty config: 10 % from 1500 RUB (mapped), a dessert gift with any pizza (mapped), coupons WELCOME200
 * (200 RUB, mapped), UNMAPPED50 (unmapped), ONCE15 (15 %, single use), OLD (expired); guests with 500 RUB
 * (5 % accrual) and 10 RUB; certificate CERT-1000 with 1000 RUB. `overrides` replace top-level keys.
 */
export function makeLoyaltyConfig(overrides: Partial<SimulatorConfig> = {}): SimulatorConfig {
  return {
    apiLogins: [LOYALTY_LOGIN],
    organizations: [LOYALTY_ORG],
    programs: [
      { id: 'p10', name: '10% from 1500 RUB', type: 'percent', percent: 10, minSubtotalMinor: 150000, posDiscountId: 'pos-disc-10' },
      {
        id: 'gift',
        name: 'Dessert with pizza',
        type: 'gift',
        gift: { productId: GIFT_DESSERT, quantityMilli: 1000 },
        productIds: [PIZZA],
        posDiscountId: 'pos-disc-gift',
      },
    ],
    coupons: [
      { code: 'WELCOME200', amountMinor: 20000, posDiscountId: 'pos-disc-w200' },
      { code: 'UNMAPPED50', amountMinor: 5000, posDiscountId: null },
      { code: 'ONCE15', percent: 15, singleUse: true, posDiscountId: 'pos-disc-once' },
      { code: 'OLD', amountMinor: 10000, validTo: '2020-01-01T00:00:00Z', posDiscountId: 'pos-disc-old' },
    ],
    guests: [
      { phone: GUEST_PHONE, bonusBalanceMinor: 50000, accrualPercent: 5 },
      { phone: POOR_PHONE, bonusBalanceMinor: 1000, accrualPercent: 3 },
    ],
    certificates: [{ serial: 'CERT-1000', balanceMinor: 100000 }],
    faults: { writeLimitPerMinute: 0 },
    ...overrides,
  };
}

/** A cart line from a product, quantity in thousandths and unit price in kopecks. */
export function line(productId: string, quantityMilli: number, unitPriceMinor: number): CalculateLine {
  return { productId, quantityMilli, unitPriceMinor, lineTotalMinor: Math.round((quantityMilli * unitPriceMinor) / 1000) };
}
