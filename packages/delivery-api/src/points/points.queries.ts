import type { Queryable } from '@app/shared';
import { type PointColumnsRow, type PointFields, type TerminalSync, type TerminalSyncRow, toPointFields, toTerminalSync } from './points.repo.js';

/** The sync state of one route's terminal group: when the POS last spoke and last pushed each document. UTC. */
export interface RouteSync extends TerminalSync {
  source: string;
  active: boolean;
  organizationId: string;
  terminalGroupId: string;
  /** Items of the pushed stop-list with a balance of 0 or less (spec: Stop-list). */
  stoppedItems: number;
}

/** A point of the chain with the routes of every source and their terminal groups' sync state. */
export interface ChainPoint extends PointFields {
  routes: RouteSync[];
}

interface Row extends PointColumnsRow, TerminalSyncRow {
  source: string | null;
  active: boolean | null;
  organization_id: string | null;
  terminal_group_id: string | null;
  stopped: number | string | null;
}

/**
 * Read model of the support console's chain pages (docs/console-webhooks-chain.md, Chain): the points of a tenant (or one of them)
 * with every source's route and its terminal group's heartbeat and push times, in one query. The tables stay
 * owned by points.repo (points, routes) and catalog/terminal-groups.repo (terminal_groups); this only reads.
 */
export async function chainPoints(db: Queryable, tenantId: string, pointId?: string): Promise<ChainPoint[]> {
  const rows = await db.query<Row>(
    `SELECT p.tenant_id, p.point_id, p.name, p.address, p.lat, p.lon, p.schedule, p.delivery_types,
            r.source, r.active, r.organization_id, r.terminal_group_id,
            t.last_heartbeat_at, t.menu_revision, t.menu_synced_at, t.stop_list_revision, t.stop_list_synced_at, t.streets_synced_at,
            (SELECT count(*) FROM jsonb_array_elements(COALESCE(t.stop_list, '[]'::jsonb)) e WHERE (e->>'balance')::numeric <= 0) AS stopped
       FROM points p
       LEFT JOIN routes r ON r.tenant_id = p.tenant_id AND r.point_id = p.point_id
       LEFT JOIN terminal_groups t ON t.organization_id = r.organization_id AND t.terminal_group_id = r.terminal_group_id
      WHERE p.tenant_id = $1 AND ($2::text IS NULL OR p.point_id = $2)
      ORDER BY length(p.point_id), p.point_id, r.source`,
    [tenantId, pointId ?? null],
  );
  const out = new Map<string, ChainPoint>();
  for (const r of rows) {
    let p = out.get(r.point_id);
    if (!p) {
      p = { ...toPointFields(r), routes: [] };
      out.set(r.point_id, p);
    }
    if (r.source !== null) {
      p.routes.push({
        source: r.source,
        active: r.active === true,
        organizationId: r.organization_id!,
        terminalGroupId: r.terminal_group_id!,
        ...toTerminalSync(r),
        stoppedItems: Number(r.stopped ?? 0),
      });
    }
  }
  return [...out.values()];
}
