import type { Clock, Db, IdSource, Queryable } from '@app/shared';

/** The catalog event types (spec: Events, "in development, not sent"; switch catalog-events). */
export const CATALOG_EVENT_TYPES = ['menu.updated', 'stoplist.updated', 'point.status_changed'] as const;
export type CatalogEventType = (typeof CATALOG_EVENT_TYPES)[number];

/**
 * How long a catalog event waits before it is due. A new revision of the same point and type within this time
 * replaces the waiting event's revision instead of adding an event, so a POS pushing many changes in a second
 * gives one event per point carrying the latest revision.
 */
export const COALESCE_WINDOW_MS = 2000;

/** What changed at one terminal group (all the routed points of it are told). */
export interface CatalogChange {
  tenantId: string;
  organizationId: string;
  terminalGroupId: string;
  type: CatalogEventType;
  /** menu.updated / stoplist.updated: the new revision. point.status_changed: the new status (`alive` / `offline`). */
  revision: string;
  occurredAt: Date;
}

/**
 * The webhook body of a catalog event: the common envelope `{eventId, type, occurredAt}` and `point` naming the
 * point and the new revision (not the menu: the partner fetches it with If-None-Match). Field order is fixed so a
 * body is byte-stable.
 */
export function catalogEventBody(eventId: string, type: CatalogEventType, occurredAt: string, pointId: string, revision: string): string {
  const point = type === 'point.status_changed' ? { pointId, status: revision } : { pointId, revision };
  return JSON.stringify({ eventId, type, occurredAt, point });
}

/**
 * Writes catalog events into the webhook outbox (the same tables, dispatcher, retries, dead letters and replay as
 * order events). Only sources with the `catalog-events` switch, an active route at a point of the terminal group
 * and a webhook endpoint subscribed to the type are told (no backlog for a URL set later, as for order events).
 */
export class CatalogEvents {
  constructor(private readonly deps: { db: Db; ids: IdSource; clock: Clock }) {}

  /** Records one change for every point and source to tell; returns how many events were added or updated. */
  async record(c: CatalogChange): Promise<number> {
    const targets = await this.deps.db.query<{ source: string; point_id: string }>(
      `SELECT r.source, r.point_id FROM routes r
         JOIN sources s ON s.tenant_id = r.tenant_id AND s.source = r.source
         JOIN webhook_endpoints w ON w.tenant_id = r.tenant_id AND w.source = r.source
        WHERE r.tenant_id = $1 AND r.organization_id = $2 AND r.terminal_group_id = $3 AND r.active
          AND s.features @> '["catalog-events"]'::jsonb AND (w.events IS NULL OR w.events @> to_jsonb($4::text))
        ORDER BY r.source, r.point_id`,
      [c.tenantId, c.organizationId, c.terminalGroupId, c.type],
    );
    for (const t of targets) await this.deps.db.tx((q) => this.recordOne(q, c, t.source, t.point_id));
    return targets.length;
  }

  /** Replaces the revision of the point's event still waiting in the window, or adds an event due after it. */
  private async recordOne(q: Queryable, c: CatalogChange, source: string, pointId: string): Promise<void> {
    const key = `${c.type}:${pointId}`;
    const now = this.deps.clock.now();
    const occurredAt = c.occurredAt.toISOString();
    // the delivery row is locked so the dispatcher cannot claim it between this check and the update
    const waiting = await q.query<{ event_id: string }>(
      `SELECT e.event_id FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.event_id
        WHERE e.tenant_id = $1 AND e.source = $2 AND e.coalesce_key = $3
          AND d.status = 'pending' AND d.attempt_count = 0 AND d.next_attempt_at > $4
        FOR UPDATE OF d`,
      [c.tenantId, source, key, now.toISOString()],
    );
    if (waiting[0]) {
      const id = waiting[0].event_id;
      await q.query(`UPDATE webhook_events SET body = $2, occurred_at = $3 WHERE event_id = $1`, [
        id,
        catalogEventBody(id, c.type, occurredAt, pointId, c.revision),
        occurredAt,
      ]);
      return;
    }
    const eventId = this.deps.ids.uuid();
    const due = new Date(now.getTime() + COALESCE_WINDOW_MS).toISOString();
    await q.query(
      `INSERT INTO webhook_events (event_id, tenant_id, source, order_id, type, occurred_at, body, coalesce_key)
       VALUES ($1, $2, $3, NULL, $4, $5, $6, $7)`,
      [eventId, c.tenantId, source, c.type, occurredAt, catalogEventBody(eventId, c.type, occurredAt, pointId, c.revision), key],
    );
    await q.query(
      `INSERT INTO webhook_deliveries (id, event_id, tenant_id, source, status, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6, $6)`,
      [this.deps.ids.uuid(), eventId, c.tenantId, source, due, now.toISOString()],
    );
  }
}
