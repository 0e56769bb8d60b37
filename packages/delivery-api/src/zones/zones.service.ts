import type { Credential } from '../auth/credentials.repo.js';
import { rub, type Money } from '../common/money.js';
import type { TerminalGroupsRepo } from '../catalog/terminal-groups.repo.js';
import { ApiError } from '../errors.js';
import type { PointsRepo, PointWithRoute } from '../points/points.repo.js';
import type { PointsService } from '../points/points.service.js';
import { distanceKm, type LatLon } from './zone-choice.js';
import type { ZoneIndexCache } from './zone-index-cache.js';
import { lookupStreet, type StreetMatch } from './streets.js';
import type { ZonesRepo, ZoneRecord } from './zones.repo.js';

/** Default ETA when a zone has none: 45 min courier, 90 min pickup. Spec: resolve. */
export const DEFAULT_ETA = { courier: 45, pickup: 90 } as const;

export interface ZoneView {
  id: string;
  name: string;
  polygon: [number, number][];
  minOrder: Money;
  deliveryFee: Money;
  freeDeliveryFrom: Money | null;
  etaMinutes: { min: number; max: number };
  priority: number;
  active: boolean;
}

export interface ResolveRequest {
  deliveryType: 'courier' | 'pickup';
  location?: LatLon;
  address?: { city?: string; street?: string; house?: string };
}

export type ResolveResult =
  | {
      serviceable: true;
      pointId: string;
      zoneId: string | null;
      minOrder: Money;
      deliveryFee: Money;
      freeDeliveryFrom: Money | null;
      etaMinutes: { min: number; max: number };
      street: { status: StreetMatch['status']; name: string | null } | null;
    }
  | { serviceable: false; reason: 'outside_zones' | 'no_location' | 'geocoding_required' | 'point_not_accepting' };

/** A delivery decision for one location, used by resolve and by checkout (fee, minimum, ETA). */
export interface DeliveryChoice {
  point: PointWithRoute;
  zone: ZoneRecord | null;
}

export function zoneView(z: ZoneRecord, type: 'courier' | 'pickup' = 'courier'): ZoneView {
  return {
    id: z.zoneId,
    name: z.name,
    polygon: z.polygon,
    minOrder: rub(z.minOrderMinor),
    deliveryFee: rub(z.deliveryFeeMinor),
    freeDeliveryFrom: z.freeDeliveryFromMinor == null ? null : rub(z.freeDeliveryFromMinor),
    etaMinutes: { min: z.etaMin ?? DEFAULT_ETA[type], max: z.etaMax ?? z.etaMin ?? DEFAULT_ETA[type] },
    priority: z.priority,
    active: z.active,
  };
}

/** Delivery zones, point resolution by coordinates and street checks against the POS dictionary. */
export class ZonesService {
  constructor(
    private readonly deps: {
      zones: ZonesRepo;
      zoneIndex: ZoneIndexCache;
      points: PointsRepo;
      pointsService: PointsService;
      terminalGroups: TerminalGroupsRepo;
    },
  ) {}

  /** Spec: GET /v1/points/{pointId}/delivery-zones (point not in key → 404; no active route → 404, as reads do). */
  async zonesOf(cred: Credential, pointId: string): Promise<ZoneView[]> {
    if (!cred.pointIds.includes(pointId)) throw new ApiError('not_found', {}, `point ${pointId} is not in the key`);
    await this.deps.pointsService.requireRouted(cred, pointId);
    return (await this.deps.zones.listForPoints(cred.tenantId, [pointId])).map((z) => zoneView(z));
  }

  /**
   * Spec: POST /v1/delivery/resolve. Courier: the active zone containing the location among the key's routed
   * points (lowest priority, then nearest point). Pickup: the nearest accepting pickup point to the location, or
   * the first accepting one in point order when no location is given; no zone, no fee.
   */
  async resolve(cred: Credential, req: ResolveRequest): Promise<ResolveResult> {
    const points = (await this.deps.points.listForSource(cred.tenantId, cred.source!, cred.pointIds)).filter(
      (p) => p.route?.active && (p.deliveryTypes === null || p.deliveryTypes.includes(req.deliveryType)),
    );
    let choice: DeliveryChoice | null;
    if (req.deliveryType === 'courier') {
      if (!req.location) return { serviceable: false, reason: req.address ? 'geocoding_required' : 'no_location' };
      const byId = new Map(points.map((p) => [p.pointId, p]));
      const index = await this.deps.zoneIndex.forTenant(cred.tenantId);
      const zone = index.choose(
        req.location,
        (id) => byId.has(id),
        (id) => locationOf(byId.get(id)),
      );
      if (!zone) return { serviceable: false, reason: 'outside_zones' };
      choice = { point: byId.get(zone.pointId)!, zone };
      if (!this.deps.pointsService.statusOf(choice.point).acceptsOrders) return { serviceable: false, reason: 'point_not_accepting' };
    } else {
      const accepting = points.filter((p) => this.deps.pointsService.statusOf(p).acceptsOrders);
      const at = req.location;
      if (at) accepting.sort((a, b) => distOr(at, a) - distOr(at, b));
      if (accepting.length === 0) return { serviceable: false, reason: 'point_not_accepting' };
      choice = { point: accepting[0], zone: null };
    }
    const eta = choice.zone ? zoneView(choice.zone, req.deliveryType).etaMinutes : { min: DEFAULT_ETA.pickup, max: DEFAULT_ETA.pickup };
    const street = req.address?.street ? await this.streetOf(choice.point, req.address.street) : null;
    return {
      serviceable: true,
      pointId: choice.point.pointId,
      zoneId: choice.zone?.zoneId ?? null,
      minOrder: rub(choice.zone?.minOrderMinor ?? 0),
      deliveryFee: rub(choice.zone?.deliveryFeeMinor ?? 0),
      freeDeliveryFrom: choice.zone?.freeDeliveryFromMinor == null ? null : rub(choice.zone.freeDeliveryFromMinor),
      etaMinutes: eta,
      street: street ? { status: street.status, name: street.status === 'ok' ? street.street.name : null } : null,
    };
  }

  /** Spec: POST /v1/addresses/check. Point outside the key → 403, without an active route → 404. */
  async checkAddress(
    cred: Credential,
    req: { externalPointId: string; street: string; house?: string; city?: string },
  ): Promise<{
    status: StreetMatch['status'];
    street?: { name: string; city: string };
    candidates?: { name: string; city: string }[];
    house?: string;
  }> {
    const point = await this.deps.pointsService.requireRouted(cred, req.externalPointId);
    const m = await this.streetOf(point, req.street);
    const house = req.house !== undefined ? { house: req.house } : {};
    if (m.status === 'ok') return { status: 'ok', street: m.street, ...house };
    if (m.status === 'ambiguous') return { status: 'ambiguous', candidates: m.candidates, ...house };
    return { status: m.status, ...house };
  }

  /** Looks a street up in the dictionary of the point's terminal group. */
  async streetOf(point: PointWithRoute, street: string): Promise<StreetMatch> {
    const streets = point.route ? await this.deps.terminalGroups.document('streets', point.route.organizationId, point.route.terminalGroupId) : null;
    return lookupStreet(streets, street);
  }
}

function locationOf(p: PointWithRoute | undefined): LatLon | null {
  return p && p.lat != null && p.lon != null ? { lat: p.lat, lon: p.lon } : null;
}

function distOr(at: LatLon, p: PointWithRoute): number {
  const loc = locationOf(p);
  return loc ? distanceKm(at, loc) : Number.POSITIVE_INFINITY;
}
