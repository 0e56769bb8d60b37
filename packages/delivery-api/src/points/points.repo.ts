import type { Queryable } from '@app/shared';

/** A weekly opening window in Moscow time; close <= open crosses midnight. Spec: Point.schedule. */
export interface ScheduleWindow {
  weekday: number;
  open: string;
  close: string;
}

/** A point with the route of one source (null when the source has no route there). */
export interface PointWithRoute {
  tenantId: string;
  pointId: string;
  name: string | null;
  address: string | null;
  lat: number | null;
  lon: number | null;
  phone: string | null;
  timezone: string;
  schedule: ScheduleWindow[] | null;
  deliveryTypes: ('courier' | 'pickup')[] | null;
  route: {
    organizationId: string;
    terminalGroupId: string;
    orderTypeId: string;
    operatorUserId: string;
    originName: string;
    active: boolean;
  } | null;
  lastHeartbeatAt: Date | null;
  streetsSyncedAt: Date | null;
  /** Revisions and sync times of the route's terminal-group catalog (for cheap ETag checks). */
  catalog: { menuRevision: string | null; menuSyncedAt: Date | null; stopListRevision: string | null; stopListSyncedAt: Date | null };
}

type Row = Record<string, unknown>;

function toPoint(r: Row): PointWithRoute {
  return {
    tenantId: r.tenant_id as string,
    pointId: r.point_id as string,
    name: (r.name as string) ?? null,
    address: (r.address as string) ?? null,
    lat: r.lat == null ? null : Number(r.lat),
    lon: r.lon == null ? null : Number(r.lon),
    phone: (r.phone as string) ?? null,
    timezone: r.timezone as string,
    schedule: (r.schedule as ScheduleWindow[]) ?? null,
    deliveryTypes: (r.delivery_types as PointWithRoute['deliveryTypes']) ?? null,
    route:
      r.organization_id == null
        ? null
        : {
            organizationId: r.organization_id as string,
            terminalGroupId: r.terminal_group_id as string,
            orderTypeId: r.order_type_id as string,
            operatorUserId: r.operator_user_id as string,
            originName: r.origin_name as string,
            active: r.active as boolean,
          },
    lastHeartbeatAt: r.last_heartbeat_at == null ? null : new Date(r.last_heartbeat_at as string),
    streetsSyncedAt: r.streets_synced_at == null ? null : new Date(r.streets_synced_at as string),
    catalog: {
      menuRevision: (r.menu_revision as string) ?? null,
      menuSyncedAt: r.menu_synced_at == null ? null : new Date(r.menu_synced_at as string),
      stopListRevision: (r.stop_list_revision as string) ?? null,
      stopListSyncedAt: r.stop_list_synced_at == null ? null : new Date(r.stop_list_synced_at as string),
    },
  };
}

/** Reads points together with the route of one source and the terminal's liveness. */
export class PointsRepo {
  constructor(private readonly db: Queryable) {}

  /** Points of `tenantId` among `pointIds`, ordered by point id (numeric when possible). */
  async listForSource(tenantId: string, source: string, pointIds: string[]): Promise<PointWithRoute[]> {
    if (pointIds.length === 0) return [];
    const rows = await this.db.query<Row>(
      `SELECT p.*, r.organization_id, r.terminal_group_id, r.order_type_id, r.operator_user_id, r.origin_name, r.active,
              t.last_heartbeat_at, t.streets_synced_at, t.menu_revision, t.menu_synced_at, t.stop_list_revision, t.stop_list_synced_at
         FROM points p
         LEFT JOIN routes r ON r.tenant_id = p.tenant_id AND r.point_id = p.point_id AND r.source = $2
         LEFT JOIN terminal_groups t ON t.organization_id = r.organization_id AND t.terminal_group_id = r.terminal_group_id
        WHERE p.tenant_id = $1 AND p.point_id = ANY($3::text[])
        ORDER BY length(p.point_id), p.point_id`,
      [tenantId, source, pointIds],
    );
    return rows.map(toPoint);
  }

  async getForSource(tenantId: string, source: string, pointId: string): Promise<PointWithRoute | null> {
    return (await this.listForSource(tenantId, source, [pointId]))[0] ?? null;
  }
}
