import type { Queryable } from '@app/shared';
import type { CatalogEventType } from '../webhooks/outbox.js';

/** One (source, point) to tell about a catalog change. */
export interface CatalogEventTarget {
  source: string;
  pointId: string;
}

/**
 * The (source, point) pairs to tell about a change of `type` at a terminal group, ordered by source then point:
 * an active route at a point of the terminal group, the source's `catalog-events` switch on, and a webhook endpoint
 * subscribed to the type. Reads routes, sources and webhook_endpoints.
 */
export async function catalogEventTargets(
  q: Queryable,
  tenantId: string,
  organizationId: string,
  terminalGroupId: string,
  type: CatalogEventType,
): Promise<CatalogEventTarget[]> {
  const rows = await q.query<{ source: string; point_id: string }>(
    `SELECT r.source, r.point_id FROM routes r
       JOIN sources s ON s.tenant_id = r.tenant_id AND s.source = r.source
       JOIN webhook_endpoints w ON w.tenant_id = r.tenant_id AND w.source = r.source
      WHERE r.tenant_id = $1 AND r.organization_id = $2 AND r.terminal_group_id = $3 AND r.active
        AND s.features @> '["catalog-events"]'::jsonb AND (w.events IS NULL OR w.events @> to_jsonb($4::text))
      ORDER BY r.source, r.point_id`,
    [tenantId, organizationId, terminalGroupId, type],
  );
  return rows.map((r) => ({ source: r.source, pointId: r.point_id }));
}
