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

type Timestamp = Date | string;

/** The columns of `points` that both the partner read and the console's chain read select. */
export interface PointColumnsRow {
  tenant_id: string;
  point_id: string;
  name: string | null;
  address: string | null;
  /** numeric columns may come back as strings */
  lat: number | string | null;
  lon: number | string | null;
  schedule: ScheduleWindow[] | null;
  delivery_types: ('courier' | 'pickup')[] | null;
}

/** The liveness and push-time columns of a route's `terminal_groups` row (nulls when there is no route). */
export interface TerminalSyncRow {
  last_heartbeat_at: Timestamp | null;
  streets_synced_at: Timestamp | null;
  menu_revision: string | null;
  menu_synced_at: Timestamp | null;
  stop_list_revision: string | null;
  stop_list_synced_at: Timestamp | null;
}

/** A row of the points query: the point, the source's route (nulls when none) and the terminal group's liveness. */
export interface PointRow extends PointColumnsRow, TerminalSyncRow {
  phone: string | null;
  timezone: string;
  organization_id: string | null;
  terminal_group_id: string | null;
  order_type_id: string | null;
  operator_user_id: string | null;
  origin_name: string | null;
  active: boolean | null;
}

/** The point's own fields of a row (the part `PointWithRoute` and the console's `ChainPoint` share). */
export type PointFields = Pick<PointWithRoute, 'tenantId' | 'pointId' | 'name' | 'address' | 'lat' | 'lon' | 'schedule' | 'deliveryTypes'>;

/** When a route's terminal group last spoke (heartbeat) and last pushed streets, menu and stop-list. UTC. */
export interface TerminalSync {
  lastHeartbeatAt: Date | null;
  streetsSyncedAt: Date | null;
  menuRevision: string | null;
  menuSyncedAt: Date | null;
  stopListRevision: string | null;
  stopListSyncedAt: Date | null;
}

const date = (v: Timestamp | null | undefined): Date | null => (v == null ? null : new Date(v));

/** The point's own fields of a `points` row. */
export const toPointFields = (r: PointColumnsRow): PointFields => ({
  tenantId: r.tenant_id,
  pointId: r.point_id,
  name: r.name ?? null,
  address: r.address ?? null,
  lat: r.lat == null ? null : Number(r.lat),
  lon: r.lon == null ? null : Number(r.lon),
  schedule: r.schedule ?? null,
  deliveryTypes: r.delivery_types ?? null,
});

/** The sync times of a joined `terminal_groups` row. */
export const toTerminalSync = (r: TerminalSyncRow): TerminalSync => ({
  lastHeartbeatAt: date(r.last_heartbeat_at),
  streetsSyncedAt: date(r.streets_synced_at),
  menuRevision: r.menu_revision ?? null,
  menuSyncedAt: date(r.menu_synced_at),
  stopListRevision: r.stop_list_revision ?? null,
  stopListSyncedAt: date(r.stop_list_synced_at),
});

/** A point row with its route (null when the source has no route there) and terminal-group liveness. */
export function rowToPoint(r: PointRow): PointWithRoute {
  const sync = toTerminalSync(r);
  return {
    ...toPointFields(r),
    phone: r.phone ?? null,
    timezone: r.timezone,
    route:
      r.organization_id == null
        ? null
        : {
            // a joined route row has all its NOT NULL columns
            organizationId: r.organization_id,
            terminalGroupId: r.terminal_group_id!,
            orderTypeId: r.order_type_id!,
            operatorUserId: r.operator_user_id!,
            originName: r.origin_name!,
            active: r.active!,
          },
    lastHeartbeatAt: sync.lastHeartbeatAt,
    streetsSyncedAt: sync.streetsSyncedAt,
    catalog: {
      menuRevision: sync.menuRevision,
      menuSyncedAt: sync.menuSyncedAt,
      stopListRevision: sync.stopListRevision,
      stopListSyncedAt: sync.stopListSyncedAt,
    },
  };
}

/** The `points` and `routes` tables: reads points with the route of one source and the terminal's liveness; operator writes. */
export class PointsRepo {
  constructor(private readonly db: Queryable) {}

  /** Points of `tenantId` among `pointIds`, ordered by point id (numeric when possible). */
  async listForSource(tenantId: string, source: string, pointIds: string[]): Promise<PointWithRoute[]> {
    if (pointIds.length === 0) return [];
    const rows = await this.db.query<PointRow>(
      `SELECT p.*, r.organization_id, r.terminal_group_id, r.order_type_id, r.operator_user_id, r.origin_name, r.active,
              t.last_heartbeat_at, t.streets_synced_at, t.menu_revision, t.menu_synced_at, t.stop_list_revision, t.stop_list_synced_at
         FROM points p
         LEFT JOIN routes r ON r.tenant_id = p.tenant_id AND r.point_id = p.point_id AND r.source = $2
         LEFT JOIN terminal_groups t ON t.organization_id = r.organization_id AND t.terminal_group_id = r.terminal_group_id
        WHERE p.tenant_id = $1 AND p.point_id = ANY($3::text[])
        ORDER BY length(p.point_id), p.point_id`,
      [tenantId, source, pointIds],
    );
    return rows.map(rowToPoint);
  }

  async getForSource(tenantId: string, source: string, pointId: string): Promise<PointWithRoute | null> {
    return (await this.listForSource(tenantId, source, [pointId]))[0] ?? null;
  }

  /** Point ids of `tenantId` among `pointIds` that exist. */
  async existing(tenantId: string, pointIds: string[]): Promise<string[]> {
    const rows = await this.db.query<{ point_id: string }>(`SELECT point_id FROM points WHERE tenant_id = $1 AND point_id = ANY($2::text[])`, [
      tenantId,
      pointIds,
    ]);
    return rows.map((r) => r.point_id);
  }

  /** Creates or updates a point (operator); fields left undefined keep their stored value. */
  async upsert(p: PointWrite): Promise<void> {
    const j = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
    await this.db.query(
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
      [
        p.tenantId,
        p.pointId,
        p.name ?? null,
        p.address ?? null,
        p.location?.lat ?? null,
        p.location?.lon ?? null,
        p.phone ?? null,
        j(p.schedule),
        j(p.deliveryTypes),
        p.name !== undefined,
        p.address !== undefined,
        p.location !== undefined,
        p.phone !== undefined,
        p.schedule !== undefined,
        p.deliveryTypes !== undefined,
      ],
    );
  }

  /** Creates or replaces the route of a source at a point (operator). */
  async upsertRoute(r: RouteWrite): Promise<void> {
    await this.db.query(
      `INSERT INTO routes (tenant_id, source, point_id, organization_id, terminal_group_id, order_type_id, operator_user_id, origin_name, active)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)
       ON CONFLICT (tenant_id, source, point_id) DO UPDATE SET organization_id = EXCLUDED.organization_id,
         terminal_group_id = EXCLUDED.terminal_group_id, order_type_id = EXCLUDED.order_type_id,
         operator_user_id = EXCLUDED.operator_user_id, origin_name = EXCLUDED.origin_name, active = EXCLUDED.active, updated_at = now()`,
      [r.tenantId, r.source, r.pointId, r.organizationId, r.terminalGroupId, r.orderTypeId, r.operatorUserId, r.originName, r.active ?? true],
    );
  }

  /** Switches a route on or off; false when the route does not exist. */
  async setRouteActive(tenantId: string, source: string, pointId: string, active: boolean): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE routes SET active = $4, updated_at = now() WHERE tenant_id = $1 AND source = $2 AND point_id = $3 RETURNING 1`,
      [tenantId, source, pointId, active],
    );
    return rows.length > 0;
  }
}

/** A point as the operator writes it; undefined = keep the stored value, null = clear it. */
export interface PointWrite {
  tenantId: string;
  pointId: string;
  name?: string | null;
  address?: string | null;
  location?: { lat: number; lon: number } | null;
  phone?: string | null;
  schedule?: ScheduleWindow[] | null;
  deliveryTypes?: ('courier' | 'pickup')[] | null;
}

/** The route of a source at a point: where its orders go at the POS. `active` defaults to true. */
export interface RouteWrite {
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
