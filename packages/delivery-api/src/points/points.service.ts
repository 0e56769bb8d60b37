import type { Clock } from '@app/shared';
import { ApiError } from '../errors.js';
import type { Credential } from '../auth/credentials.repo.js';
import type { PointsRepo, PointWithRoute } from './points.repo.js';
import { isOpenAt } from './schedule.js';

/** Point as published. Spec: Resources, Point. */
export interface PointView {
  externalPointId: string;
  active: boolean;
  streetsSyncedAt: string | null;
  name: string | null;
  address: string | null;
  location: { lat: number; lon: number } | null;
  phone: string | null;
  timezone: string;
  schedule: PointWithRoute['schedule'];
  isOpenNow: boolean;
  acceptsOrders: boolean;
  deliveryTypes: PointWithRoute['deliveryTypes'];
}

/** Spec: Point status. */
export interface PointStatus {
  acceptsOrders: boolean;
  terminalAlive: boolean;
  isOpenNow: boolean;
  reason: 'terminal_offline' | 'closed' | null;
}

/** Points of a partner key, their opening state and whether they accept orders now. */
export class PointsService {
  constructor(private readonly deps: { points: PointsRepo; clock: Clock; heartbeatWindowSeconds: number }) {}

  /** Spec: GET /v1/points — every point of the key. */
  async list(cred: Credential): Promise<PointView[]> {
    const points = await this.deps.points.listForSource(cred.tenantId, cred.source!, cred.pointIds);
    return points.map((p) => this.view(p));
  }

  /**
   * A point of the key with an active route for the key's source (read operations).
   * @throws ApiError forbidden (403) when the point is not in the key; not_found (404) without an active route.
   */
  async requireRouted(cred: Credential, pointId: string): Promise<PointWithRoute & { route: NonNullable<PointWithRoute['route']> }> {
    if (!cred.pointIds.includes(pointId)) throw new ApiError('forbidden', {}, `point ${pointId} is not allowed for this key`);
    const p = await this.deps.points.getForSource(cred.tenantId, cred.source!, pointId);
    if (!p?.route?.active) throw new ApiError('not_found', {}, `point ${pointId} has no active route`);
    return p as PointWithRoute & { route: NonNullable<PointWithRoute['route']> };
  }

  /** Spec: GET /v1/points/{pointId}/status. */
  async status(cred: Credential, pointId: string): Promise<PointStatus> {
    return this.statusOf(await this.requireRouted(cred, pointId));
  }

  /** Liveness, schedule and route combined; reason `terminal_offline` is reported before `closed`. */
  statusOf(p: PointWithRoute): PointStatus {
    const terminalAlive = this.isAlive(p.lastHeartbeatAt);
    const isOpenNow = isOpenAt(p.schedule, this.deps.clock.now(), p.timezone);
    const routeActive = p.route?.active === true;
    const acceptsOrders = routeActive && terminalAlive && isOpenNow;
    const reason = acceptsOrders ? null : !terminalAlive ? 'terminal_offline' : !isOpenNow ? 'closed' : null;
    return { acceptsOrders, terminalAlive, isOpenNow, reason };
  }

  private isAlive(lastHeartbeatAt: Date | null): boolean {
    if (!lastHeartbeatAt) return false;
    return this.deps.clock.now().getTime() - lastHeartbeatAt.getTime() <= this.deps.heartbeatWindowSeconds * 1000;
  }

  private view(p: PointWithRoute): PointView {
    const s = this.statusOf(p);
    return {
      externalPointId: p.pointId,
      active: p.route?.active === true,
      streetsSyncedAt: p.streetsSyncedAt?.toISOString() ?? null,
      name: p.name,
      address: p.address,
      location: p.lat != null && p.lon != null ? { lat: p.lat, lon: p.lon } : null,
      phone: p.phone,
      timezone: p.timezone,
      schedule: p.schedule,
      isOpenNow: s.isOpenNow,
      acceptsOrders: s.acceptsOrders,
      deliveryTypes: p.deliveryTypes,
    };
  }
}
