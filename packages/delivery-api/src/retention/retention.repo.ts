import type { Db } from '@app/shared';

/** Rows removed by one batch of the webhook purge. */
export interface WebhookPurgeCounts {
  deliveries: number;
  attempts: number;
  events: number;
}

/**
 * Deletes up to `limit` used request ids that expired before `now`, by primary key, in one short statement.
 * Returns how many were deleted (less than `limit` = nothing more to do).
 */
export async function purgeRequestIdsBatch(db: Db, now: Date, limit: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM request_ids WHERE (api_key, request_id) IN (
       SELECT api_key, request_id FROM request_ids WHERE expires_at < $1 LIMIT $2)
     RETURNING 1`,
    [now.toISOString(), limit],
  );
  return rows.length;
}

/**
 * Deletes up to `limit` webhook deliveries that were `delivered` before `before`, with their attempt log and
 * their event once no delivery refers to it, in one short transaction. Rows are locked with SKIP LOCKED, so a
 * dispatcher or a replay working on one is never waited for (it is purged by a later run if still eligible).
 * Dead and pending deliveries are never touched. Returns the rows removed per table.
 */
export function purgeDeliveredWebhooksBatch(db: Db, before: Date, limit: number): Promise<WebhookPurgeCounts> {
  return deleteDeliveriesBatch(db, `status = 'delivered' AND delivered_at < $1 ORDER BY delivered_at`, [before.toISOString()], limit);
}

/**
 * The operator's purge of dead deliveries (`webhook purge-dead`): up to `limit` dead deliveries of a source
 * (optionally one tenant) that died before `before`, with their attempt log and event, in one short transaction.
 */
export function purgeDeadWebhooksBatch(db: Db, f: { source: string; tenantId?: string; before: Date }, limit: number): Promise<WebhookPurgeCounts> {
  return deleteDeliveriesBatch(
    db,
    `status = 'dead' AND source = $1 AND ($2::text IS NULL OR tenant_id = $2) AND dead_at < $3 ORDER BY dead_at`,
    [f.source, f.tenantId ?? null, f.before.toISOString()],
    limit,
  );
}

async function deleteDeliveriesBatch(db: Db, where: string, params: unknown[], limit: number): Promise<WebhookPurgeCounts> {
  return db.tx(async (q) => {
    const picked = await q.query<{ id: string; event_id: string }>(
      `SELECT id, event_id FROM webhook_deliveries WHERE ${where} LIMIT $${params.length + 1} FOR UPDATE SKIP LOCKED`,
      [...params, limit],
    );
    if (picked.length === 0) return { deliveries: 0, attempts: 0, events: 0 };
    const ids = picked.map((r) => r.id);
    const attempts = await q.query(`DELETE FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) RETURNING 1`, [ids]);
    const deliveries = await q.query(`DELETE FROM webhook_deliveries WHERE id = ANY($1::uuid[]) RETURNING 1`, [ids]);
    const events = await q.query(
      `DELETE FROM webhook_events e WHERE e.event_id = ANY($1::uuid[])
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.event_id)
       RETURNING 1`,
      [[...new Set(picked.map((r) => r.event_id))]],
    );
    return { deliveries: deliveries.length, attempts: attempts.length, events: events.length };
  });
}
