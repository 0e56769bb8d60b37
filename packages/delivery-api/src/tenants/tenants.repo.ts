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

/** A `tenants` row (migrations). */
export interface TenantRow {
  id: string;
  name: string;
  checkout_enabled: boolean;
  zone_pricing: boolean;
  loyalty_enabled: boolean;
  online_payment_type_code: string;
  cash_payment_type_code: string;
  card_payment_type_code: string;
  bonus_payment_type_code: string | null;
  certificate_payment_type_code: string | null;
  delivery_fee_product_id: string | null;
}

/** The settings of a tenant row. */
export function rowToTenantSettings(r: TenantRow): TenantSettings {
  return {
    tenantId: r.id,
    checkoutEnabled: r.checkout_enabled,
    zonePricing: r.zone_pricing,
    loyaltyEnabled: r.loyalty_enabled,
    onlinePaymentTypeCode: r.online_payment_type_code,
    cashPaymentTypeCode: r.cash_payment_type_code,
    cardPaymentTypeCode: r.card_payment_type_code,
    bonusPaymentTypeCode: r.bonus_payment_type_code ?? null,
    certificatePaymentTypeCode: r.certificate_payment_type_code ?? null,
    deliveryFeeProductId: r.delivery_fee_product_id ?? null,
  };
}

const SETTING_COLUMNS: Record<keyof Omit<TenantSettings, 'tenantId'>, string> = {
  checkoutEnabled: 'checkout_enabled',
  zonePricing: 'zone_pricing',
  loyaltyEnabled: 'loyalty_enabled',
  onlinePaymentTypeCode: 'online_payment_type_code',
  cashPaymentTypeCode: 'cash_payment_type_code',
  cardPaymentTypeCode: 'card_payment_type_code',
  bonusPaymentTypeCode: 'bonus_payment_type_code',
  certificatePaymentTypeCode: 'certificate_payment_type_code',
  deliveryFeeProductId: 'delivery_fee_product_id',
};

/** The `tenants` and `sources` tables: tenant rows, their checkout settings and their partner sources. */
export class TenantsRepo {
  constructor(private readonly db: Queryable) {}

  /** Settings of a tenant. @throws Error when the tenant does not exist. */
  async settings(tenantId: string): Promise<TenantSettings> {
    const rows = await this.db.query<TenantRow>(`SELECT * FROM tenants WHERE id = $1`, [tenantId]);
    const r = rows[0];
    if (!r) throw new Error(`tenant ${tenantId} does not exist`);
    return rowToTenantSettings(r);
  }

  /** Updates the given settings (operator); undefined fields keep their value. */
  async updateSettings(tenantId: string, s: Partial<Omit<TenantSettings, 'tenantId'>>): Promise<void> {
    const entries = Object.entries(s).filter(([, v]) => v !== undefined) as [keyof typeof SETTING_COLUMNS, unknown][];
    if (!entries.length) return;
    const sets = entries.map(([k], i) => `${SETTING_COLUMNS[k]} = $${i + 2}`).join(', ');
    await this.db.query(`UPDATE tenants SET ${sets} WHERE id = $1`, [tenantId, ...entries.map(([, v]) => v)]);
  }

  /** Creates a tenant or renames it and sets its checkout switch. */
  async upsert(id: string, name: string, checkoutEnabled: boolean): Promise<void> {
    await this.db.query(
      `INSERT INTO tenants (id, name, checkout_enabled) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, checkout_enabled = EXCLUDED.checkout_enabled`,
      [id, name, checkoutEnabled],
    );
  }

  async exists(tenantId: string): Promise<boolean> {
    return (await this.db.query(`SELECT 1 FROM tenants WHERE id = $1`, [tenantId])).length > 0;
  }

  /** Adds a partner source to a tenant (no-op when it exists). */
  async addSource(tenantId: string, source: string): Promise<void> {
    await this.db.query(`INSERT INTO sources (tenant_id, source) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [tenantId, source]);
  }

  async sourceExists(tenantId: string, source: string): Promise<boolean> {
    return (await this.db.query(`SELECT 1 FROM sources WHERE tenant_id = $1 AND source = $2`, [tenantId, source])).length > 0;
  }

  /** Every tenant (id and name), by id. */
  async list(): Promise<{ id: string; name: string }[]> {
    return this.db.query<{ id: string; name: string }>(`SELECT id, name FROM tenants ORDER BY id`);
  }

  /** Every source of every tenant (or of one tenant), by tenant and source. */
  async listSources(tenantId?: string): Promise<{ tenantId: string; source: string }[]> {
    const rows = await this.db.query<{ tenant_id: string; source: string }>(
      `SELECT tenant_id, source FROM sources WHERE $1::text IS NULL OR tenant_id = $1 ORDER BY tenant_id, source`,
      [tenantId ?? null],
    );
    return rows.map((r) => ({ tenantId: r.tenant_id, source: r.source }));
  }
}
