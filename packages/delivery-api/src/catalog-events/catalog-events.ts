import type { Clock, Db, IdSource } from '@app/shared';
import { OutboxRepo } from '../webhooks/outbox.repo.js';
import { catalogEventTargets } from './catalog-events.queries.js';

import type { CatalogEventType } from '../webhooks/outbox.js';

export { CATALOG_EVENT_TYPES, type CatalogEventType } from '../webhooks/outbox.js';

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
    const targets = await catalogEventTargets(this.deps.db, c.tenantId, c.organizationId, c.terminalGroupId, c.type);
    for (const t of targets) await this.deps.db.tx((q) => this.recordOne(new OutboxRepo(q), c, t.source, t.pointId));
    return targets.length;
  }

  /** Replaces the revision of the point's event still waiting in the window, or adds an event due after it. */
  private async recordOne(outbox: OutboxRepo, c: CatalogChange, source: string, pointId: string): Promise<void> {
    const key = `${c.type}:${pointId}`;
    const now = this.deps.clock.now();
    const occurredAt = c.occurredAt.toISOString();
    const waiting = await outbox.lockWaitingCoalesced(c.tenantId, source, key, now);
    if (waiting) {
      await outbox.replaceBody(waiting, catalogEventBody(waiting, c.type, occurredAt, pointId, c.revision), occurredAt);
      return;
    }
    const eventId = this.deps.ids.uuid();
    await outbox.enqueueCoalescible({
      eventId,
      tenantId: c.tenantId,
      source,
      type: c.type,
      occurredAt,
      body: catalogEventBody(eventId, c.type, occurredAt, pointId, c.revision),
      coalesceKey: key,
      deliveryId: this.deps.ids.uuid(),
      dueAt: new Date(now.getTime() + COALESCE_WINDOW_MS).toISOString(),
      createdAt: now.toISOString(),
    });
  }
}
