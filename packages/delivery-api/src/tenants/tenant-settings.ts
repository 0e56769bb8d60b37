import type { Queryable } from '@app/shared';

/** Checkout and order settings of a tenant (operator-configured). */
export interface TenantSettings {
  tenantId: string;
  /** False → 503 checkout_unavailable on calculation (server switch). */
  checkoutEnabled: boolean;
  /** False reproduces the spec's restriction: delivery fee 0, minimum order always met. */
  zonePricing: boolean;
  /** False → loyalty not connected: calculations report loyaltyUnavailable. */
  loyaltyEnabled: boolean;
  /** POS payment-type codes (iiko): online prepayment (ECARD), cash, card on delivery, bonus, certificate. */
  onlinePaymentTypeCode: string;
  cashPaymentTypeCode: string;
  cardPaymentTypeCode: string;
  bonusPaymentTypeCode: string | null;
  certificatePaymentTypeCode: string | null;
  /** POS product of the delivery-fee service line; null → the fee is not sent as a line. */
  deliveryFeeProductId: string | null;
}

/** Reads tenant settings. */
export async function getTenantSettings(q: Queryable, tenantId: string): Promise<TenantSettings> {
  const rows = await q.query<Record<string, unknown>>(`SELECT * FROM tenants WHERE id = $1`, [tenantId]);
  const r = rows[0];
  if (!r) throw new Error(`tenant ${tenantId} does not exist`);
  return {
    tenantId,
    checkoutEnabled: r.checkout_enabled as boolean,
    zonePricing: r.zone_pricing as boolean,
    loyaltyEnabled: r.loyalty_enabled as boolean,
    onlinePaymentTypeCode: r.online_payment_type_code as string,
    cashPaymentTypeCode: r.cash_payment_type_code as string,
    cardPaymentTypeCode: r.card_payment_type_code as string,
    bonusPaymentTypeCode: (r.bonus_payment_type_code as string) ?? null,
    certificatePaymentTypeCode: (r.certificate_payment_type_code as string) ?? null,
    deliveryFeeProductId: (r.delivery_fee_product_id as string) ?? null,
  };
}

/** Updates the given settings (operator). */
export async function updateTenantSettings(q: Queryable, tenantId: string, s: Partial<Omit<TenantSettings, 'tenantId'>>): Promise<void> {
  const cols: Record<keyof Omit<TenantSettings, 'tenantId'>, string> = {
    checkoutEnabled: 'checkout_enabled', zonePricing: 'zone_pricing', loyaltyEnabled: 'loyalty_enabled',
    onlinePaymentTypeCode: 'online_payment_type_code', cashPaymentTypeCode: 'cash_payment_type_code',
    cardPaymentTypeCode: 'card_payment_type_code', bonusPaymentTypeCode: 'bonus_payment_type_code',
    certificatePaymentTypeCode: 'certificate_payment_type_code', deliveryFeeProductId: 'delivery_fee_product_id',
  };
  const entries = Object.entries(s).filter(([, v]) => v !== undefined) as [keyof typeof cols, unknown][];
  if (!entries.length) return;
  const sets = entries.map(([k], i) => `${cols[k]} = $${i + 2}`).join(', ');
  await q.query(`UPDATE tenants SET ${sets} WHERE id = $1`, [tenantId, ...entries.map(([, v]) => v)]);
}
