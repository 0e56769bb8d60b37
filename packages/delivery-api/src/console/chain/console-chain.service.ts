import { AdminError, formError } from '@app/admin-web';
import type { Clock, Db, IdSource } from '@app/shared';
import { newApiKey, newApiSecret } from '../../auth/credential-keys.js';
import { CredentialsRepo, type Credential, type CredentialListing, type CredentialScope } from '../../auth/credentials.repo.js';
import type { SecretBox } from '../../auth/secret-box.js';
import { TerminalGroupsRepo } from '../../catalog/terminal-groups.repo.js';
import { FEATURES, isFeature, type Feature } from '../../features/features.js';
import { SourceFeaturesRepo } from '../../features/source-features.repo.js';
import { PointsRepo } from '../../points/points.repo.js';
import { chainPoints, type ChainPoint } from '../../points/points.queries.js';
import { TenantsRepo } from '../../tenants/tenants.repo.js';
import { ZonesRepo } from '../../zones/zones.repo.js';
import type { ResolveResult, ZonesService } from '../../zones/zones.service.js';
import { drawZoneMap, type ZoneMap } from './zone-map.js';

/** A stop-listed item of a route's terminal group: POS product id, its menu name (null when not in the menu), balance. */
export interface StoppedItem {
  id: string;
  name: string | null;
  balance: number;
}

/** A point's page: the point, its routes' sync state and each route's stop-listed items. */
export interface PointDetail extends ChainPoint {
  stopLists: { source: string; items: StoppedItem[] }[];
}

/** A credential just issued: the secret is shown once and stored only sealed. */
export interface IssuedCredential {
  id: string;
  apiKey: string;
  apiSecret: string;
}

/** One source of a tenant with the per-source switches that are on. */
export interface SourceSwitches {
  source: string;
  features: Feature[];
}

/** A resolve tried from the map: the result, and what was asked. */
export interface MapResolve {
  source: string;
  lat: number;
  lon: number;
  deliveryType: 'courier' | 'pickup';
  result: ResolveResult;
}

/** Age in whole seconds of a time relative to `now`, null when it never happened. */
export const ageSeconds = (now: Date, at: Date | null): number | null => (at ? Math.max(0, Math.floor((now.getTime() - at.getTime()) / 1000)) : null);

/**
 * The chain in the support console (docs/console-webhooks-chain.md, Chain; admin only): points with schedule and sync state, routes on
 * and off, zones on a map with resolve tried at a location, partner and POS credentials, per-source switches.
 * Writes go through the owning repositories with the rules of `delivery-operator` (operator.service.ts); refusals
 * are AdminError (422 for a form, 404 for something that does not exist).
 */
export class ConsoleChainService {
  constructor(
    private readonly deps: {
      db: Db;
      box: SecretBox;
      clock: Clock;
      zones: ZonesService;
      /** Heartbeat window of the point status (HEARTBEAT_WINDOW_SECONDS): an older heartbeat is "POS silent". */
      heartbeatWindowSeconds: number;
      ids: IdSource;
    },
  ) {}

  /** Tenants with their names, by id. */
  tenants(): Promise<{ id: string; name: string }[]> {
    return new TenantsRepo(this.deps.db).list();
  }

  /** The tenant to show: `wanted` when it exists, else the first one. 404 when there is no tenant at all. */
  async tenant(wanted?: string): Promise<{ id: string; name: string }> {
    const all = await this.tenants();
    const t = all.find((x) => x.id === wanted) ?? all[0];
    if (!t || (wanted && t.id !== wanted)) throw new AdminError('NOT_FOUND', wanted ? `Сети ${wanted} нет.` : 'Сетей ещё нет.');
    return t;
  }

  /** Every point of a tenant with its routes' sync state, by point number. */
  points(tenantId: string): Promise<ChainPoint[]> {
    return chainPoints(this.deps.db, tenantId);
  }

  /** The injected clock's time (ages on the pages are measured from it). */
  now(): Date {
    return this.deps.clock.now();
  }

  /** Whether a heartbeat at `at` still counts as the POS being alive now. */
  alive(at: Date | null): boolean {
    const age = ageSeconds(this.deps.clock.now(), at);
    return age !== null && age <= this.deps.heartbeatWindowSeconds;
  }

  /** One point with each route's stop-listed items (names from the same terminal group's menu). 404 when unknown. */
  async point(tenantId: string, pointId: string): Promise<PointDetail> {
    const p = (await chainPoints(this.deps.db, tenantId, pointId))[0];
    if (!p) throw new AdminError('NOT_FOUND', `Точки ${pointId} нет.`);
    const tg = new TerminalGroupsRepo(this.deps.db);
    const stopLists = await Promise.all(
      p.routes.map(async (r) => {
        const stop = (await tg.document('stop_list', r.organizationId, r.terminalGroupId)) ?? [];
        const out = stop.filter((e) => e.balance <= 0);
        const menu = out.length ? await tg.document('menu', r.organizationId, r.terminalGroupId) : null;
        const names = new Map((menu?.items ?? []).map((i) => [i.id, i.name]));
        return { source: r.source, items: out.map((e) => ({ id: e.id, name: names.get(e.id) ?? null, balance: e.balance })) };
      }),
    );
    return { ...p, stopLists };
  }

  /** Turns the route of a source at a point on or off. 404 when there is no such route. */
  async setRouteActive(tenantId: string, source: string, pointId: string, active: boolean): Promise<void> {
    if (!(await new PointsRepo(this.deps.db).setRouteActive(tenantId, source, pointId, active)))
      throw new AdminError('NOT_FOUND', `У источника ${source} нет маршрута в точке ${pointId}.`);
  }

  /** The zones and points of a tenant drawn as a map; `at` adds a marker for a tried location. */
  async zoneMap(tenantId: string, at?: { lat: number; lon: number }): Promise<ZoneMap> {
    const zones = await new ZonesRepo(this.deps.db).listForTenant(tenantId);
    const points = (await this.points(tenantId)).filter((p) => p.lat !== null && p.lon !== null);
    const markers = points.map((p) => ({ id: p.pointId, label: p.pointId, lat: p.lat!, lon: p.lon! }));
    if (at) markers.push({ id: 'resolve', label: '×', ...at });
    return drawZoneMap(
      zones.map((z) => ({ zoneId: z.zoneId, pointId: z.pointId, name: z.name, active: z.active, polygon: z.polygon })),
      markers,
    );
  }

  /**
   * POST /v1/delivery/resolve as a source would get it for `lat`,`lon` (spec: Delivery zones), across every point the
   * source has a route at. Form values arrive as text: 422 for a latitude or longitude that is not a number in range,
   * 404 for an unknown source.
   */
  async resolve(tenantId: string, input: { source?: unknown; lat?: unknown; lon?: unknown; deliveryType?: unknown }): Promise<MapResolve> {
    const source = String(input.source ?? '');
    const lat = toNumber(input.lat);
    const lon = toNumber(input.lon);
    if (lat === null || lat < -90 || lat > 90) throw formError('lat', 'Широта — число от −90 до 90.');
    if (lon === null || lon < -180 || lon > 180) throw formError('lon', 'Долгота — число от −180 до 180.');
    const deliveryType = input.deliveryType === 'pickup' ? 'pickup' : 'courier';
    if (!(await new TenantsRepo(this.deps.db).sourceExists(tenantId, source))) throw formError('source', 'Выберите источник.');
    const pointIds = (await this.points(tenantId)).filter((p) => p.routes.some((r) => r.source === source)).map((p) => p.pointId);
    // The source as a key that may use every point it has a route at: resolve then answers what that source's widest key would get.
    const asSource: Credential = {
      id: 'console',
      kind: 'partner',
      apiKey: 'console',
      secret: '',
      tenantId,
      source,
      pointIds,
      organizationId: null,
      terminalGroupId: null,
      features: [],
    };
    return { source, lat, lon, deliveryType, result: await this.deps.zones.resolve(asSource, { deliveryType, location: { lat, lon } }) };
  }

  /** Credentials of a tenant, newest first, without secrets. */
  async credentials(tenantId: string): Promise<CredentialListing[]> {
    return (await this.credentialsRepo().listForOperator(tenantId)).reverse();
  }

  /**
   * Issues a partner credential for a source and points (form: `source`, `points` as "101, 102" or a list).
   * The returned secret is shown once. 422 when the source or a point is unknown or no point is given.
   */
  async issuePartner(tenantId: string, input: { source?: unknown; points?: unknown }): Promise<IssuedCredential> {
    const source = String(input.source ?? '');
    const pointIds = [
      ...new Set(
        ([] as unknown[])
          .concat(input.points ?? [])
          .flatMap((v) => String(v).split(/[\s,]+/))
          .filter(Boolean),
      ),
    ];
    if (pointIds.length === 0) throw formError('points', 'Укажите хотя бы одну точку.');
    const known = new Set((await this.points(tenantId)).map((p) => p.pointId));
    const unknown = pointIds.filter((p) => !known.has(p));
    if (unknown.length) throw formError('points', `Нет точек: ${unknown.join(', ')}.`);
    if (!(await new TenantsRepo(this.deps.db).sourceExists(tenantId, source))) throw formError('source', 'Выберите источник.');
    return this.issue('partner', tenantId, { source, pointIds });
  }

  /** Issues a POS credential for the terminal group of a point's route (form: `point`, `source`). Secret shown once. */
  async issuePos(tenantId: string, input: { point?: unknown; source?: unknown }): Promise<IssuedCredential> {
    const p = (await this.points(tenantId)).find((x) => x.pointId === String(input.point ?? ''));
    const route = p?.routes.find((r) => r.source === String(input.source ?? '')) ?? p?.routes[0];
    if (!p || !route) throw formError('point', 'Выберите точку, у которой есть маршрут (кассу).');
    return this.issue('pos', tenantId, { organizationId: route.organizationId, terminalGroupId: route.terminalGroupId });
  }

  /**
   * Revokes an active credential of the tenant; requests with it get 401 within the credential cache time (5 s).
   * 404 when the tenant has no active credential with this key.
   */
  async revoke(tenantId: string, apiKey: string): Promise<CredentialListing> {
    const repo = this.credentialsRepo();
    const c = (await repo.listForOperator(tenantId)).find((x) => x.api_key === apiKey && x.revoked_at === null);
    if (!c || !(await repo.revoke(apiKey))) throw new AdminError('NOT_FOUND', 'Действующего ключа с таким именем нет.');
    return c;
  }

  /** The switches of every source of a tenant. */
  async switches(tenantId: string): Promise<SourceSwitches[]> {
    const repo = new SourceFeaturesRepo(this.deps.db);
    const sources = await new TenantsRepo(this.deps.db).listSources(tenantId);
    return Promise.all(sources.map(async (s) => ({ source: s.source, features: (await repo.get(tenantId, s.source)) ?? [] })));
  }

  /** Turns one switch of a source on or off; returns the switches now on. 422 unknown switch, 404 unknown source. */
  async setSwitch(tenantId: string, source: string, feature: string, on: boolean): Promise<Feature[]> {
    if (!isFeature(feature)) throw formError('feature', `Неизвестный переключатель; есть: ${FEATURES.join(', ')}.`);
    const now = await new SourceFeaturesRepo(this.deps.db).change(tenantId, source, on ? [feature] : [], on ? [] : [feature]);
    if (!now) throw new AdminError('NOT_FOUND', `Источника ${source} нет.`);
    return now;
  }

  /** A random key and secret (the CLI's generators); the secret is sealed by the repository. */
  private async issue(kind: 'partner' | 'pos', tenantId: string, scope: CredentialScope): Promise<IssuedCredential> {
    const issued = { id: this.deps.ids.uuid(), apiKey: newApiKey(kind), apiSecret: newApiSecret() };
    await this.credentialsRepo().insert({ id: issued.id, kind, apiKey: issued.apiKey, secret: issued.apiSecret, tenantId, scope });
    return issued;
  }

  /** Uncached: the console must see its own writes. */
  private credentialsRepo(): CredentialsRepo {
    return new CredentialsRepo(this.deps.db, this.deps.box, 0);
  }
}

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || v.trim() === '') return null;
  const n = Number(v.trim().replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}
