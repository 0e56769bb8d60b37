import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '@app/shared';
import type { SecretBox } from '../auth/secret-box.js';
import { TerminalGroupsRepo } from '../catalog/terminal-groups.repo.js';
import type { ScheduleWindow } from '../points/points.repo.js';
import { ZonesRepo } from '../zones/zones.repo.js';
import { TenantsRepo, type TenantSettings } from '../tenants/tenants.repo.js';
import { OperatorError } from '../errors.js';
import { parseZonesGeoJson } from './geojson.js';

/** Minimum lengths. Spec: Authentication (key ≥ 8, secret ≥ 32 characters). */
export const MIN_KEY_LENGTH = 8;
export const MIN_SECRET_LENGTH = 32;

export interface PointInput {
  tenantId: string;
  pointId: string;
  name?: string | null;
  address?: string | null;
  location?: { lat: number; lon: number } | null;
  phone?: string | null;
  schedule?: ScheduleWindow[] | null;
  deliveryTypes?: ('courier' | 'pickup')[] | null;
}

export interface RouteInput {
  tenantId: string;
  source: string;
  pointId: string;
  organizationId: string;
  terminalGroupId: string;
  orderTypeId: string;
  operatorUserId: string;
  originName: string;
  active?: boolean;
}

/** A newly issued credential; the secret is shown once and stored only encrypted. */
export interface IssuedCredential {
  id: string;
  apiKey: string;
  apiSecret: string;
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

function checkSchedule(s: ScheduleWindow[] | null | undefined): void {
  for (const w of s ?? []) {
    if (!Number.isInteger(w.weekday) || w.weekday < 0 || w.weekday > 6) throw new OperatorError(`schedule weekday must be 0..6 (0 = Sunday), got ${w.weekday}`);
    if (!HHMM.test(w.open) || !HHMM.test(w.close)) throw new OperatorError(`schedule times must be HH:MM, got ${w.open}-${w.close}`);
  }
}

/**
 * What the service operator does: tenants, sources, points and their routes, zones, credentials.
 * Spec: Authentication (operator-issued keys), issue "Operator CLI". Secrets are encrypted with the master key.
 */
export class OperatorService {
  constructor(private readonly deps: { db: Db; box: SecretBox }) {}

  async createTenant(id: string, name: string, checkoutEnabled = true): Promise<void> {
    await this.deps.db.query(
      `INSERT INTO tenants (id, name, checkout_enabled) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, checkout_enabled = EXCLUDED.checkout_enabled`,
      [id, name, checkoutEnabled],
    );
  }

  /** Changes checkout settings of a tenant (switches and POS payment-type codes). */
  async updateSettings(tenantId: string, s: Partial<Omit<TenantSettings, 'tenantId'>>): Promise<void> {
    await this.requireTenant(tenantId);
    const now = await new TenantsRepo(this.deps.db).settings(tenantId);
    const zonePricing = s.zonePricing ?? now.zonePricing;
    const feeProduct = s.deliveryFeeProductId !== undefined ? s.deliveryFeeProductId : now.deliveryFeeProductId;
    if (zonePricing && !feeProduct) {
      // the guest would pay a fee that never reaches the POS as a line (rule 9): refuse rather than lose it
      throw new OperatorError('zone pricing needs a delivery-fee product: add --delivery-fee-product POS_PRODUCT_ID');
    }
    await new TenantsRepo(this.deps.db).updateSettings(tenantId, s);
  }

  async createSource(tenantId: string, source: string): Promise<void> {
    await this.requireTenant(tenantId);
    await this.deps.db.query(`INSERT INTO sources (tenant_id, source) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [tenantId, source]);
  }

  /** Creates or updates a point; fields left undefined keep their value. */
  async setPoint(p: PointInput): Promise<void> {
    await this.requireTenant(p.tenantId);
    checkSchedule(p.schedule);
    if (!/^\d{1,10}$/.test(p.pointId)) throw new OperatorError(`point id must be a point number (digits), got "${p.pointId}"`);
    const j = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
    await this.deps.db.query(
      `INSERT INTO points (tenant_id, point_id, name, address, lat, lon, phone, schedule, delivery_types)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8::jsonb,$9::jsonb)
       ON CONFLICT (tenant_id, point_id) DO UPDATE SET
         name = CASE WHEN $10 THEN EXCLUDED.name ELSE points.name END,
         address = CASE WHEN $11 THEN EXCLUDED.address ELSE points.address END,
         lat = CASE WHEN $12 THEN EXCLUDED.lat ELSE points.lat END,
         lon = CASE WHEN $12 THEN EXCLUDED.lon ELSE points.lon END,
         phone = CASE WHEN $13 THEN EXCLUDED.phone ELSE points.phone END,
         schedule = CASE WHEN $14 THEN EXCLUDED.schedule ELSE points.schedule END,
         delivery_types = CASE WHEN $15 THEN EXCLUDED.delivery_types ELSE points.delivery_types END`,
      [p.tenantId, p.pointId, p.name ?? null, p.address ?? null, p.location?.lat ?? null, p.location?.lon ?? null, p.phone ?? null,
        j(p.schedule), j(p.deliveryTypes),
        p.name !== undefined, p.address !== undefined, p.location !== undefined, p.phone !== undefined, p.schedule !== undefined, p.deliveryTypes !== undefined],
    );
  }

  /** Creates or replaces the route of a source at a point (and the terminal group it points to). */
  async setRoute(r: RouteInput): Promise<void> {
    await this.deps.db.tx(async (q) => {
      const ok = await q.query(`SELECT 1 FROM points WHERE tenant_id = $1 AND point_id = $2`, [r.tenantId, r.pointId]);
      if (!ok.length) throw new OperatorError(`point ${r.pointId} of tenant ${r.tenantId} does not exist`);
      const src = await q.query(`SELECT 1 FROM sources WHERE tenant_id = $1 AND source = $2`, [r.tenantId, r.source]);
      if (!src.length) throw new OperatorError(`source ${r.source} of tenant ${r.tenantId} does not exist`);
      await new TerminalGroupsRepo(q).ensure(r.tenantId, r.organizationId, r.terminalGroupId);
      await q.query(
        `INSERT INTO routes (tenant_id, source, point_id, organization_id, terminal_group_id, order_type_id, operator_user_id, origin_name, active)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)
         ON CONFLICT (tenant_id, source, point_id) DO UPDATE SET organization_id = EXCLUDED.organization_id,
           terminal_group_id = EXCLUDED.terminal_group_id, order_type_id = EXCLUDED.order_type_id,
           operator_user_id = EXCLUDED.operator_user_id, origin_name = EXCLUDED.origin_name, active = EXCLUDED.active, updated_at = now()`,
        [r.tenantId, r.source, r.pointId, r.organizationId, r.terminalGroupId, r.orderTypeId, r.operatorUserId, r.originName, r.active ?? true],
      );
    });
  }

  async setRouteActive(tenantId: string, source: string, pointId: string, active: boolean): Promise<void> {
    const rows = await this.deps.db.query(
      `UPDATE routes SET active = $4, updated_at = now() WHERE tenant_id = $1 AND source = $2 AND point_id = $3 RETURNING 1`,
      [tenantId, source, pointId, active],
    );
    if (!rows.length) throw new OperatorError(`no route of source ${source} at point ${pointId}`);
  }

  /** Replaces the zones of every point named in the file. Returns the number of zones loaded. */
  async loadZones(tenantId: string, geojson: unknown): Promise<number> {
    const zones = parseZonesGeoJson(tenantId, geojson);
    const pointIds = [...new Set(zones.map((z) => z.pointId))];
    const known = await this.deps.db.query<{ point_id: string }>(
      `SELECT point_id FROM points WHERE tenant_id = $1 AND point_id = ANY($2::text[])`,
      [tenantId, pointIds],
    );
    const missing = pointIds.filter((id) => !known.some((k) => k.point_id === id));
    if (missing.length) throw new OperatorError(`zones refer to unknown points: ${missing.join(', ')}`);
    await this.deps.db.tx((q) => new ZonesRepo(q).replaceForPoints(q, tenantId, pointIds, zones));
    return zones.length;
  }

  /** Issues a partner credential for a tenant, a source and a list of points. */
  async issuePartnerCredential(a: { tenantId: string; source: string; pointIds: string[]; apiKey?: string; apiSecret?: string }): Promise<IssuedCredential> {
    const src = await this.deps.db.query(`SELECT 1 FROM sources WHERE tenant_id = $1 AND source = $2`, [a.tenantId, a.source]);
    if (!src.length) throw new OperatorError(`source ${a.source} of tenant ${a.tenantId} does not exist`);
    if (a.pointIds.length === 0) throw new OperatorError('a partner credential needs at least one point');
    if (a.apiSecret) await this.refuseWebhookSecret(a.tenantId, a.source, a.apiSecret);
    return this.insertCredential('partner', a.tenantId, { source: a.source, pointIds: a.pointIds }, a.apiKey, a.apiSecret);
  }

  /** Issues a POS credential bound to one terminal group (organizationId + terminalGroupId). */
  async issuePosCredential(a: { tenantId: string; organizationId: string; terminalGroupId: string; apiKey?: string; apiSecret?: string }): Promise<IssuedCredential> {
    const tg = await this.deps.db.query(
      `SELECT 1 FROM terminal_groups WHERE tenant_id = $1 AND organization_id = $2 AND terminal_group_id = $3`,
      [a.tenantId, a.organizationId, a.terminalGroupId],
    );
    if (!tg.length) throw new OperatorError(`terminal group ${a.organizationId}/${a.terminalGroupId} has no route in tenant ${a.tenantId}`);
    return this.insertCredential('pos', a.tenantId, { organizationId: a.organizationId, terminalGroupId: a.terminalGroupId }, a.apiKey, a.apiSecret);
  }

  async revokeCredential(apiKey: string): Promise<void> {
    const rows = await this.deps.db.query(`UPDATE credentials SET revoked_at = now() WHERE api_key = $1 AND revoked_at IS NULL RETURNING 1`, [apiKey]);
    if (!rows.length) throw new OperatorError('no active credential with this key');
  }

  /** Replaces the secret of an active credential (rotation); the key stays. */
  async replaceSecret(apiKey: string, apiSecret: string): Promise<void> {
    if (apiSecret.length < MIN_SECRET_LENGTH) throw new OperatorError(`the secret must have at least ${MIN_SECRET_LENGTH} characters`);
    const owner = await this.deps.db.query<{ tenant_id: string; source: string | null }>(`SELECT tenant_id, source FROM credentials WHERE api_key = $1 AND revoked_at IS NULL`, [apiKey]);
    if (owner[0]?.source) await this.refuseWebhookSecret(owner[0].tenant_id, owner[0].source, apiSecret);
    const rows = await this.deps.db.query(`UPDATE credentials SET secret_enc = $2 WHERE api_key = $1 AND revoked_at IS NULL RETURNING 1`, [apiKey, this.deps.box.seal(apiSecret)]);
    if (!rows.length) throw new OperatorError('no active credential with this key');
  }

  /** Credentials without secrets. */
  async listCredentials(tenantId: string): Promise<Record<string, unknown>[]> {
    return this.deps.db.query(
      `SELECT id, kind, api_key, source, point_ids, organization_id, terminal_group_id, created_at, revoked_at
         FROM credentials WHERE tenant_id = $1 ORDER BY created_at`,
      [tenantId],
    );
  }

  /** The active partner credential with this key, secret decrypted (demo start-up reuses it). */
  async findPartnerSecret(apiKey: string): Promise<string | null> {
    const rows = await this.deps.db.query<{ secret_enc: string }>(
      `SELECT secret_enc FROM credentials WHERE api_key = $1 AND revoked_at IS NULL`,
      [apiKey],
    );
    return rows[0] ? this.deps.box.open(rows[0].secret_enc) : null;
  }

  private async insertCredential(
    kind: 'partner' | 'pos',
    tenantId: string,
    scope: { source?: string; pointIds?: string[]; organizationId?: string; terminalGroupId?: string },
    apiKey = `${kind === 'pos' ? 'pos' : 'pk'}_${randomBytes(12).toString('hex')}`,
    apiSecret = randomBytes(32).toString('base64url'),
  ): Promise<IssuedCredential> {
    if (apiKey.length < MIN_KEY_LENGTH) throw new OperatorError(`the key must have at least ${MIN_KEY_LENGTH} characters`);
    if (apiSecret.length < MIN_SECRET_LENGTH) throw new OperatorError(`the secret must have at least ${MIN_SECRET_LENGTH} characters`);
    const id = randomUUID();
    try {
      await this.deps.db.query(
        `INSERT INTO credentials (id, kind, api_key, secret_enc, tenant_id, source, point_ids, organization_id, terminal_group_id)
         VALUES ($1,$2,$3,$4,$5,$6,$7::jsonb,$8,$9)`,
        [id, kind, apiKey, this.deps.box.seal(apiSecret), tenantId, scope.source ?? null,
          scope.pointIds ? JSON.stringify(scope.pointIds) : null, scope.organizationId ?? null, scope.terminalGroupId ?? null],
      );
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new OperatorError('a credential with this key already exists');
      throw err;
    }
    return { id, apiKey, apiSecret };
  }

  /** The API secret must differ from the webhook secret of the same tenant and source (spec: Events, configuration). */
  private async refuseWebhookSecret(tenantId: string, source: string, apiSecret: string): Promise<void> {
    const rows = await this.deps.db.query<{ secret_enc: string }>(`SELECT secret_enc FROM webhook_endpoints WHERE tenant_id = $1 AND source = $2`, [tenantId, source]);
    if (rows[0] && this.deps.box.open(rows[0].secret_enc) === apiSecret) {
      throw new OperatorError('the API secret must differ from the webhook secret of this source');
    }
  }

  private async requireTenant(tenantId: string): Promise<void> {
    const rows = await this.deps.db.query(`SELECT 1 FROM tenants WHERE id = $1`, [tenantId]);
    if (!rows.length) throw new OperatorError(`tenant ${tenantId} does not exist`);
  }
}
