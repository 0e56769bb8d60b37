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
}

interface CredentialRow {
  id: string;
  kind: 'partner' | 'pos';
  api_key: string;
  secret_enc: string;
  tenant_id: string;
  source: string | null;
  point_ids: string[] | null;
  organization_id: string | null;
  terminal_group_id: string | null;
}

/**
 * Reads credentials by key; revoked ones are invisible. Found credentials are cached for `cacheMs` (default 5 s)
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
      `SELECT id, kind, api_key, secret_enc, tenant_id, source, point_ids, organization_id, terminal_group_id
         FROM credentials WHERE api_key = $1 AND revoked_at IS NULL`,
      [apiKey],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      kind: r.kind,
      apiKey: r.api_key,
      secret: this.box.open(r.secret_enc),
      tenantId: r.tenant_id,
      source: r.source,
      pointIds: r.point_ids ?? [],
      organizationId: r.organization_id,
      terminalGroupId: r.terminal_group_id,
    };
  }
}
