import { describe, expect, it } from 'vitest';
import type { Calculation } from '../../src/checkout/calculator.js';
import type { TenantSettings } from '../../src/tenants/tenants.repo.js';
import type { OrderRequest } from '../../src/orders/order-request.js';
import { checkoutPayload, type PayloadContext } from '../../src/orders/pos-payload.js';

/** a delivery fee reaches the POS only as its service line; without a fee product it is a defect. */
const settings = (deliveryFeeProductId: string | null): TenantSettings => ({
  tenantId: 't1',
  checkoutEnabled: true,
  zonePricing: true,
  loyaltyEnabled: true,
  onlinePaymentTypeCode: 'ECARD',
  cashPaymentTypeCode: 'CASH',
  cardPaymentTypeCode: 'CARD',
  bonusPaymentTypeCode: null,
  certificatePaymentTypeCode: null,
  deliveryFeeProductId,
});

function world(feeProduct: string | null): { ctx: PayloadContext; calc: Calculation } {
  const req = {
    externalOrderId: 'e1',
    deliveryType: 'courier',
    guest: { name: 'Иван', phone: '+79990000001' },
    address: { street: 'Тверская улица', house: '1' },
    items: [{ externalProductId: 'p1', quantity: '1', price: { amountMinor: 50000, currency: 'RUB' } }],
    payment: { method: 'cash', paid: false, amountMinor: 69900 },
  } as unknown as OrderRequest;
  const ctx: PayloadContext = {
    orderId: 'o1',
    route: {
      tenantId: 't1',
      source: 'website',
      externalPointId: '1',
      organizationId: 'org',
      terminalGroupId: 'tg',
      orderTypeId: 'ot',
      operatorUserId: 'op',
      originName: 'website',
    },
    req,
    street: { status: 'not_found' } as PayloadContext['street'],
  };
  const calc = {
    settings: settings(feeProduct),
    loyalty: null,
    lines: [{ id: 'p1', item: { id: 'pos-p1' }, quantityMilli: 1000, unitPriceMinor: 50000, lineTotalMinor: 50000 }],
    amounts: { subtotal: 50000, programDiscount: 0, couponDiscount: 0, bonusSpend: 0, deliveryFee: 19900, certificateSpend: 0, total: 69900 },
  } as unknown as Calculation;
  return { ctx, calc };
}

describe('checkoutPayload: the delivery-fee line', () => {
  it('a non-zero fee goes to the POS as the fee product’s service line', () => {
    const { ctx, calc } = world('fee-product');
    expect(checkoutPayload(ctx, calc).deliveryFeeLine).toEqual({ productId: 'fee-product', sumMinor: 19900 });
  });

  it('a non-zero fee without a fee product is refused (internal_error), never a payload without the line', () => {
    const { ctx, calc } = world(null);
    expect(() => checkoutPayload(ctx, calc)).toThrow(expect.objectContaining({ code: 'internal_error' }));
  });
});
