import { randomIds, type Db, type IdSource } from '@app/shared';
import { newApiKey, newApiSecret } from '../auth/credential-keys.js';
import { CredentialsRepo, type CredentialListing } from '../auth/credentials.repo.js';
import type { SecretBox } from '../auth/secret-box.js';
import { TerminalGroupsRepo } from '../catalog/terminal-groups.repo.js';
import { PointsRepo, type PointWrite, type RouteWrite, type ScheduleWindow } from '../points/points.repo.js';
import { ZonesRepo } from '../zones/zones.repo.js';
import { TenantsRepo, type TenantSettings } from '../tenants/tenants.repo.js';
import { WebhookEndpointsRepo } from '../webhooks/endpoints.repo.js';
import { OperatorError } from '../errors.js';
import { parseZonesGeoJson } from './geojson.js';
import { FEATURES, parseFeatureList, type Feature } from '../features/features.js';
import { SourceFeaturesRepo } from '../features/source-features.repo.js';

/** Minimum lengths. Spec: Authentication (key ≥ 8, secret ≥ 32 characters). */
export const MIN_KEY_LENGTH = 8;
export const MIN_SECRET_LENGTH = 32;

/** A point as the operator sets it (points.repo.ts `PointWrite`): undefined keeps the stored value. */
export type PointInput = PointWrite;

/** A route as the operator sets it (points.repo.ts `RouteWrite`). */
export type RouteInput = RouteWrite;

/** A newly issued credential; the secret is shown once and stored only encrypted. */
export interface IssuedCredential {
  id: string;
  apiKey: string;
  apiSecret: string;
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

function checkSchedule(s: ScheduleWindow[] | null | undefined): void {
  for (const w of s ?? []) {
    if (!Number.isInteger(w.weekday) || w.weekday < 0 || w.weekday > 6)
      throw new OperatorError(`schedule weekday must be 0..6 (0 = Sunday), got ${w.weekday}`);
    if (!HHMM.test(w.open) || !HHMM.test(w.close)) throw new OperatorError(`schedule times must be HH:MM, got ${w.open}-${w.close}`);
  }
}

/**
 * What the service operator does: tenants, sources, points and their routes, zones, credentials.
 * Spec: Authentication (operator-issued keys), issue "Operator CLI". Secrets are encrypted with the master key.
 */
export class OperatorService {
  private readonly ids: IdSource;

  constructor(private readonly deps: { db: Db; box: SecretBox; ids?: IdSource }) {
    this.ids = deps.ids ?? randomIds;
  }

  async createTenant(id: string, name: string, checkoutEnabled = true): Promise<void> {
    await new TenantsRepo(this.deps.db).upsert(id, name, checkoutEnabled);
  }

  /** Changes checkout settings of a tenant (switches and POS payment-type codes). */
  async updateSettings(tenantId: string, s: Partial<Omit<TenantSettings, 'tenantId'>>): Promise<void> {
    await this.requireTenant(tenantId);
    const tenants = new TenantsRepo(this.deps.db);
    const now = await tenants.settings(tenantId);
    const zonePricing = s.zonePricing ?? now.zonePricing;
    const feeProduct = s.deliveryFeeProductId !== undefined ? s.deliveryFeeProductId : now.deliveryFeeProductId;
    if (zonePricing && !feeProduct) {
      // the guest would pay a fee that never reaches the POS as a line (rule 9): refuse rather than lose it
      throw new OperatorError('zone pricing needs a delivery-fee product: add --delivery-fee-product POS_PRODUCT_ID');
    }
    await tenants.updateSettings(tenantId, s);
  }

  async createSource(tenantId: string, source: string): Promise<void> {
    await this.requireTenant(tenantId);
    await new TenantsRepo(this.deps.db).addSource(tenantId, source);
  }

  /**
   * Turns per-source switches on (`enable`) and off (`disable`), comma-separated names of FEATURES; with neither
   * it only lists them. Returns the switches now on. Requests see a change within the credential cache time.
   * @throws OperatorError for an unknown switch name or source.
   */
  async sourceFeatures(tenantId: string, source: string, enable?: string, disable?: string): Promise<Feature[]> {
    let on: Feature[];
    let off: Feature[];
    try {
      on = parseFeatureList(enable ?? '');
      off = parseFeatureList(disable ?? '');
    } catch (err) {
      throw new OperatorError((err as Error).message);
    }
    const repo = new SourceFeaturesRepo(this.deps.db);
    const now = on.length || off.length ? await repo.change(tenantId, source, on, off) : await repo.get(tenantId, source);
    if (!now) throw new OperatorError(`no source ${source} in tenant ${tenantId} (known switches: ${FEATURES.join(', ')})`);
    return now;
  }

  /** Creates or updates a point; fields left undefined keep their value. */
  async setPoint(p: PointInput): Promise<void> {
    await this.requireTenant(p.tenantId);
    checkSchedule(p.schedule);
    if (!/^\d{1,10}$/.test(p.pointId)) throw new OperatorError(`point id must be a point number (digits), got "${p.pointId}"`);
    await new PointsRepo(this.deps.db).upsert(p);
  }

  /** Creates or replaces the route of a source at a point (and the terminal group it points to). */
  async setRoute(r: RouteInput): Promise<void> {
    await this.deps.db.tx(async (q) => {
      const points = new PointsRepo(q);
      if (!(await points.existing(r.tenantId, [r.pointId])).length)
        throw new OperatorError(`point ${r.pointId} of tenant ${r.tenantId} does not exist`);
      if (!(await new TenantsRepo(q).sourceExists(r.tenantId, r.source)))
        throw new OperatorError(`source ${r.source} of tenant ${r.tenantId} does not exist`);
      await new TerminalGroupsRepo(q).ensure(r.tenantId, r.organizationId, r.terminalGroupId);
      await points.upsertRoute(r);
    });
  }

  async setRouteActive(tenantId: string, source: string, pointId: string, active: boolean): Promise<void> {
    if (!(await new PointsRepo(this.deps.db).setRouteActive(tenantId, source, pointId, active)))
      throw new OperatorError(`no route of source ${source} at point ${pointId}`);
  }

  /** Replaces the zones of every point named in the file. Returns the number of zones loaded. */
  async loadZones(tenantId: string, geojson: unknown): Promise<number> {
    const zones = parseZonesGeoJson(tenantId, geojson);
    const pointIds = [...new Set(zones.map((z) => z.pointId))];
    const known = await new PointsRepo(this.deps.db).existing(tenantId, pointIds);
    const missing = pointIds.filter((id) => !known.includes(id));
    if (missing.length) throw new OperatorError(`zones refer to unknown points: ${missing.join(', ')}`);
    await this.deps.db.tx((q) => new ZonesRepo(q).replaceForPoints(q, tenantId, pointIds, zones));
    return zones.length;
  }

  /** Issues a partner credential for a tenant, a source and a list of points. */
  async issuePartnerCredential(a: {
    tenantId: string;
    source: string;
    pointIds: string[];
    apiKey?: string;
    apiSecret?: string;
  }): Promise<IssuedCredential> {
    if (!(await new TenantsRepo(this.deps.db).sourceExists(a.tenantId, a.source)))
      throw new OperatorError(`source ${a.source} of tenant ${a.tenantId} does not exist`);
    if (a.pointIds.length === 0) throw new OperatorError('a partner credential needs at least one point');
    if (a.apiSecret) await this.refuseWebhookSecret(a.tenantId, a.source, a.apiSecret);
    return this.insertCredential('partner', a.tenantId, { source: a.source, pointIds: a.pointIds }, a.apiKey, a.apiSecret);
  }

  /** Issues a POS credential bound to one terminal group (organizationId + terminalGroupId). */
  async issuePosCredential(a: {
    tenantId: string;
    organizationId: string;
    terminalGroupId: string;
    apiKey?: string;
    apiSecret?: string;
  }): Promise<IssuedCredential> {
    if (!(await new TerminalGroupsRepo(this.deps.db).exists(a.tenantId, a.organizationId, a.terminalGroupId))) {
      throw new OperatorError(`terminal group ${a.organizationId}/${a.terminalGroupId} has no route in tenant ${a.tenantId}`);
    }
    return this.insertCredential('pos', a.tenantId, { organizationId: a.organizationId, terminalGroupId: a.terminalGroupId }, a.apiKey, a.apiSecret);
  }

  async revokeCredential(apiKey: string): Promise<void> {
    if (!(await this.credentials().revoke(apiKey))) throw new OperatorError('no active credential with this key');
  }

  /** Replaces the secret of an active credential (rotation); the key stays. */
  async replaceSecret(apiKey: string, apiSecret: string): Promise<void> {
    if (apiSecret.length < MIN_SECRET_LENGTH) throw new OperatorError(`the secret must have at least ${MIN_SECRET_LENGTH} characters`);
    const creds = this.credentials();
    const owner = await creds.ownerOf(apiKey);
    if (owner?.source) await this.refuseWebhookSecret(owner.tenantId, owner.source, apiSecret);
    if (!(await creds.replaceSecret(apiKey, apiSecret))) throw new OperatorError('no active credential with this key');
  }

  /** Credentials without secrets. */
  async listCredentials(tenantId: string): Promise<CredentialListing[]> {
    return this.credentials().listForOperator(tenantId);
  }

  /** The active credential with this key, secret decrypted (demo start-up reuses it). */
  async findPartnerSecret(apiKey: string): Promise<string | null> {
    return (await this.credentials().findActiveByKey(apiKey))?.secret ?? null;
  }

  /** Uncached: the operator must see its own writes. */
  private credentials(): CredentialsRepo {
    return new CredentialsRepo(this.deps.db, this.deps.box, 0);
  }

  private async insertCredential(
    kind: 'partner' | 'pos',
    tenantId: string,
    scope: { source?: string; pointIds?: string[]; organizationId?: string; terminalGroupId?: string },
    apiKey = newApiKey(kind),
    apiSecret = newApiSecret(),
  ): Promise<IssuedCredential> {
    if (apiKey.length < MIN_KEY_LENGTH) throw new OperatorError(`the key must have at least ${MIN_KEY_LENGTH} characters`);
    if (apiSecret.length < MIN_SECRET_LENGTH) throw new OperatorError(`the secret must have at least ${MIN_SECRET_LENGTH} characters`);
    const id = this.ids.uuid();
    try {
      await this.credentials().insert({ id, kind, apiKey, secret: apiSecret, tenantId, scope });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new OperatorError('a credential with this key already exists');
      throw err;
    }
    return { id, apiKey, apiSecret };
  }

  /** The API secret must differ from the webhook secret of the same tenant and source (spec: Events, configuration). */
  private async refuseWebhookSecret(tenantId: string, source: string, apiSecret: string): Promise<void> {
    const sealed = await new WebhookEndpointsRepo(this.deps.db).sealedSecretOf(tenantId, source);
    if (sealed && this.deps.box.open(sealed) === apiSecret) {
      throw new OperatorError('the API secret must differ from the webhook secret of this source');
    }
  }

  private async requireTenant(tenantId: string): Promise<void> {
    if (!(await new TenantsRepo(this.deps.db).exists(tenantId))) throw new OperatorError(`tenant ${tenantId} does not exist`);
  }
}
