import type { Queryable } from '@app/shared';

/** A `webhook_endpoints` row (migrations). `events` null = all types; the secret is sealed with the master key. */
export interface WebhookEndpointRow {
  tenant_id: string;
  source: string;
  url: string;
  secret_enc: string;
  events: string[] | null;
  updated_at: Date | string;
}

/** A configured endpoint as shown to the operator (never the secret). */
export interface WebhookEndpointInfo {
  tenantId: string;
  source: string;
  url: string;
  /** null = all types. */
  events: string[] | null;
  updatedAt: Date;
}

/** The operator's view of an endpoint row. */
export function rowToEndpointInfo(r: Omit<WebhookEndpointRow, 'secret_enc'>): WebhookEndpointInfo {
  return { tenantId: r.tenant_id, source: r.source, url: r.url, events: r.events, updatedAt: new Date(r.updated_at) };
}

/** The `webhook_endpoints` table: one endpoint per tenant and source. Spec: Events, Configuration. */
export class WebhookEndpointsRepo {
  constructor(private readonly db: Queryable) {}

  /** Creates or replaces the endpoint of a tenant and source; `events` null = all types. `now` is UTC. */
  async upsert(e: { tenantId: string; source: string; url: string; secretEnc: string; events: string[] | null }, now: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO webhook_endpoints (tenant_id, source, url, secret_enc, events, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (tenant_id, source) DO UPDATE SET url = EXCLUDED.url, secret_enc = EXCLUDED.secret_enc,
         events = EXCLUDED.events, updated_at = EXCLUDED.updated_at`,
      [e.tenantId, e.source, e.url, e.secretEnc, e.events === null ? null : JSON.stringify(e.events), now.toISOString()],
    );
  }

  /** Endpoints, optionally of one tenant, by tenant and source. */
  async list(tenantId?: string): Promise<WebhookEndpointInfo[]> {
    const rows = await this.db.query<Omit<WebhookEndpointRow, 'secret_enc'>>(
      `SELECT tenant_id, source, url, events, updated_at FROM webhook_endpoints WHERE $1::text IS NULL OR tenant_id = $1 ORDER BY tenant_id, source`,
      [tenantId ?? null],
    );
    return rows.map(rowToEndpointInfo);
  }

  /** The sealed secret of the endpoint of a tenant and source, or null when none is configured. */
  async sealedSecretOf(tenantId: string, source: string): Promise<string | null> {
    const rows = await this.db.query<Pick<WebhookEndpointRow, 'secret_enc'>>(
      `SELECT secret_enc FROM webhook_endpoints WHERE tenant_id = $1 AND source = $2`,
      [tenantId, source],
    );
    return rows[0]?.secret_enc ?? null;
  }
}
