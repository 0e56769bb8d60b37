import type { Clock, Db } from '@app/shared';
import type { CatalogEvents } from './catalog-events.js';

/**
 * Emits `point.status_changed` (switch catalog-events) when a terminal group's POS becomes alive or offline: a
 * terminal is alive while its last heartbeat is within the heartbeat window, as point status says. Going offline
 * has no request that could report it, so this runs periodically (server.ts, every 15 s) and compares each
 * terminal group's liveness with the one last reported (`terminal_groups.notified_alive`). The first look at a
 * terminal group records its state without an event. The events are written before the state, so a crash between
 * the two repeats the event (at least once); two instances looking at once coalesce into the waiting event.
 */
export class PointStatusWatcher {
  constructor(private readonly deps: { db: Db; events: CatalogEvents; clock: Clock; heartbeatWindowSeconds: number }) {}

  /** One look; returns the number of terminal groups whose liveness changed. */
  async runOnce(): Promise<number> {
    const now = this.deps.clock.now();
    const cutoff = new Date(now.getTime() - this.deps.heartbeatWindowSeconds * 1000).toISOString();
    const changed = await this.deps.db.query<{
      tenant_id: string;
      organization_id: string;
      terminal_group_id: string;
      before: boolean | null;
      alive: boolean;
    }>(
      `SELECT t.tenant_id, t.organization_id, t.terminal_group_id, t.notified_alive AS before,
              (t.last_heartbeat_at IS NOT NULL AND t.last_heartbeat_at >= $1::timestamptz) AS alive
         FROM terminal_groups t
        WHERE t.notified_alive IS DISTINCT FROM (t.last_heartbeat_at IS NOT NULL AND t.last_heartbeat_at >= $1::timestamptz)
          AND EXISTS (SELECT 1 FROM routes r JOIN sources s ON s.tenant_id = r.tenant_id AND s.source = r.source
                       WHERE r.organization_id = t.organization_id AND r.terminal_group_id = t.terminal_group_id
                         AND s.features @> '["catalog-events"]'::jsonb)
        LIMIT 500`,
      [cutoff],
    );
    for (const t of changed) {
      if (t.before !== null)
        await this.deps.events.record({
          tenantId: t.tenant_id,
          organizationId: t.organization_id,
          terminalGroupId: t.terminal_group_id,
          type: 'point.status_changed',
          revision: t.alive ? 'alive' : 'offline',
          occurredAt: now,
        });
      await this.deps.db.query(`UPDATE terminal_groups SET notified_alive = $3 WHERE organization_id = $1 AND terminal_group_id = $2`, [
        t.organization_id,
        t.terminal_group_id,
        t.alive,
      ]);
    }
    return changed.length;
  }
}
