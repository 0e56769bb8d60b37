import type { Queryable } from '@app/shared';
import type { SecretBox } from './secret-box.js';

/**
 * An API credential as the request pipeline sees it, secret decrypted.
 * `partner`: bound to tenant + source + allowed points. `pos`: bound to one terminal group (organizationId +
 * terminalGroupId). Spec: Authentication, Scoping.
 */
export interface Credential {
  id: string;
  kind: 'partner' | 'pos';
  apiKey: string;
  secret: string;
  tenantId: string;
  source: string | null;
  pointIds: string[];
  organizationId: string | null;
  terminalGroupId: string | null;
  /** Switches of the credential's source (features/features.ts); empty for POS credentials. */
  features: readonly string[];
}

/** A `credentials` row (the columns the service reads). */
export interface CredentialRow {
  id: string;
  kind: 'partner' | 'pos';
  api_key: string;
  secret_enc: string;
  tenant_id: string;
  source: string | null;
  point_ids: string[] | null;
  organization_id: string | null;
  terminal_group_id: string | null;
  /** The source's switches (joined from `sources`); absent where not selected. */
  features?: string[] | null;
}

/** A credential row with its secret opened. */
export function rowToCredential(r: CredentialRow, box: SecretBox): Credential {
  return {
    id: r.id,
    kind: r.kind,
    apiKey: r.api_key,
    secret: box.open(r.secret_enc),
    tenantId: r.tenant_id,
    source: r.source,
    pointIds: r.point_ids ?? [],
    organizationId: r.organization_id,
    terminalGroupId: r.terminal_group_id,
    features: r.features ?? [],
  };
}

/**
 * The `credentials` table. Reads credentials by key; revoked ones are invisible. Found credentials are cached for `cacheMs` (default 5 s)
 * per instance, so a revocation takes effect within that time; unknown keys are never cached.
 */
export class CredentialsRepo {
  private readonly cache = new Map<string, { cred: Credential; until: number }>();

  constructor(
    private readonly db: Queryable,
    private readonly box: SecretBox,
    private readonly cacheMs = 5000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The active credential with this key, or null. Throws the driver error when the database is unreachable. */
  async findActiveByKey(apiKey: string): Promise<Credential | null> {
    const hit = this.cache.get(apiKey);
    if (hit && hit.until > this.now()) return hit.cred;
    const cred = await this.load(apiKey);
    if (cred && this.cacheMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(apiKey, { cred, until: this.now() + this.cacheMs });
    } else this.cache.delete(apiKey);
    return cred;
  }

  private async load(apiKey: string): Promise<Credential | null> {
    const rows = await this.db.query<CredentialRow>(
      `SELECT id, kind, api_key, secret_enc, tenant_id, source, point_ids, organization_id, terminal_group_id,
              (SELECT s.features FROM sources s WHERE s.tenant_id = credentials.tenant_id AND s.source = credentials.source) AS features
         FROM credentials WHERE api_key = $1 AND revoked_at IS NULL`,
      [apiKey],
    );
    const r = rows[0];
    return r ? rowToCredential(r, this.box) : null;
  }

  /**
   * Inserts a credential; the secret is sealed with the master key. `scope` is the partner's source and points
   * or the POS terminal group. @throws the driver's unique violation (23505) when the key exists.
   */
  async insert(c: { id: string; kind: 'partner' | 'pos'; apiKey: string; secret: string; tenantId: string; scope: CredentialScope }): Promise<void> {
    await this.db.query(
      `INSERT INTO credentials (id, kind, api_key, secret_enc, tenant_id, source, point_ids, organization_id, terminal_group_id)
       VALUES ($1,$2,$3,$4,$5,$6,$7::jsonb,$8,$9)`,
      [
        c.id,
        c.kind,
        c.apiKey,
        this.box.seal(c.secret),
        c.tenantId,
        c.scope.source ?? null,
        c.scope.pointIds ? JSON.stringify(c.scope.pointIds) : null,
        c.scope.organizationId ?? null,
        c.scope.terminalGroupId ?? null,
      ],
    );
  }

  /** Revokes the active credential with this key; false when there is none. */
  async revoke(apiKey: string): Promise<boolean> {
    return (
      (await this.db.query(`UPDATE credentials SET revoked_at = now() WHERE api_key = $1 AND revoked_at IS NULL RETURNING 1`, [apiKey])).length > 0
    );
  }

  /** Replaces the secret of the active credential with this key; false when there is none. */
  async replaceSecret(apiKey: string, secret: string): Promise<boolean> {
    const rows = await this.db.query(`UPDATE credentials SET secret_enc = $2 WHERE api_key = $1 AND revoked_at IS NULL RETURNING 1`, [
      apiKey,
      this.box.seal(secret),
    ]);
    return rows.length > 0;
  }

  /** Tenant and source of the active credential with this key (source null for POS), or null. */
  async ownerOf(apiKey: string): Promise<{ tenantId: string; source: string | null } | null> {
    const rows = await this.db.query<Pick<CredentialRow, 'tenant_id' | 'source'>>(
      `SELECT tenant_id, source FROM credentials WHERE api_key = $1 AND revoked_at IS NULL`,
      [apiKey],
    );
    return rows[0] ? { tenantId: rows[0].tenant_id, source: rows[0].source } : null;
  }

  /** Decrypted secrets of the active partner credentials of a tenant and source, with their keys. */
  async partnerSecretsOf(tenantId: string, source: string): Promise<{ apiKey: string; secret: string }[]> {
    const rows = await this.db.query<Pick<CredentialRow, 'api_key' | 'secret_enc'>>(
      `SELECT api_key, secret_enc FROM credentials WHERE kind = 'partner' AND tenant_id = $1 AND source = $2 AND revoked_at IS NULL`,
      [tenantId, source],
    );
    return rows.map((r) => ({ apiKey: r.api_key, secret: this.box.open(r.secret_enc) }));
  }

  /** Credentials of a tenant for the operator, oldest first, without secrets (column names as stored). */
  async listForOperator(tenantId: string): Promise<CredentialListing[]> {
    return this.db.query<CredentialListing>(
      `SELECT id, kind, api_key, source, point_ids, organization_id, terminal_group_id, created_at, revoked_at
         FROM credentials WHERE tenant_id = $1 ORDER BY created_at`,
      [tenantId],
    );
  }
}

/** What a credential is bound to: a partner's source and points, or a POS terminal group. */
export interface CredentialScope {
  source?: string;
  pointIds?: string[];
  organizationId?: string;
  terminalGroupId?: string;
}

/** One credential as the operator CLI prints it (snake_case, as the JSON output always was). */
export interface CredentialListing {
  id: string;
  kind: 'partner' | 'pos';
  api_key: string;
  source: string | null;
  point_ids: string[] | null;
  organization_id: string | null;
  terminal_group_id: string | null;
  created_at: Date;
  revoked_at: Date | null;
}
