import type { Db, Queryable } from '@app/shared';

/** A claimed delivery with everything needed to send it. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  tenantId: string;
  source: string;
  /** Failures since (re)queued; picks the next retry delay. */
  scheduleStep: number;
  attemptCount: number;
  /** The stored serialised body (sent byte for byte). */
  body: string;
  /** Current endpoint URL and sealed secret; null when the endpoint was removed. */
  url: string | null;
  secretEnc: string | null;
}

/**
 * Claims up to `limit` due deliveries in one short transaction: rows `pending`, due at `now`, not under a live
 * lease, locked with FOR UPDATE SKIP LOCKED (so concurrent dispatchers take disjoint rows) and leased until
 * `now + leaseSeconds` under `token`. A dispatcher that dies keeps the lease only until it expires.
 */
export async function claimDueDeliveries(db: Db, now: Date, limit: number, leaseSeconds: number, token: string): Promise<ClaimedDelivery[]> {
  return db.tx(async (q) => {
    const due = await q.query<{ id: string }>(
      `SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
        ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now.toISOString(), limit],
    );
    if (due.length === 0) return [];
    const until = new Date(now.getTime() + leaseSeconds * 1000).toISOString();
    const rows = await q.query<{
      id: string; event_id: string; tenant_id: string; source: string; schedule_step: number; attempt_count: number;
      body: string; url: string | null; secret_enc: string | null;
    }>(
      `UPDATE webhook_deliveries d SET locked_until = $2, lease_token = $3
         FROM webhook_events e
         LEFT JOIN webhook_endpoints p ON p.tenant_id = e.tenant_id AND p.source = e.source
        WHERE d.id = ANY($1::uuid[]) AND e.event_id = d.event_id
        RETURNING d.id, d.event_id, d.tenant_id, d.source, d.schedule_step, d.attempt_count, e.body, p.url, p.secret_enc`,
      [due.map((r) => r.id), until, token],
    );
    return rows.map((r) => ({
      id: r.id, eventId: r.event_id, tenantId: r.tenant_id, source: r.source, scheduleStep: r.schedule_step,
      attemptCount: r.attempt_count, body: r.body, url: r.url, secretEnc: r.secret_enc,
    }));
  });
}

/** Outcome of one attempt, recorded in the attempt log. `durationMs` is wall time. */
export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  success: boolean;
}

/** Next state after the attempt: delivered, retry at `nextAt`, or dead. */
export type NextState = { status: 'delivered' } | { status: 'pending'; nextAt: Date } | { status: 'dead' };

/**
 * Writes the attempt and the delivery's next state in one transaction, only while `token` still holds the lease
 * (a dispatcher whose lease expired and was re-claimed must not overwrite the newer owner). Returns false then.
 */
export async function finishAttempt(db: Db, d: ClaimedDelivery, token: string, a: AttemptRecord, next: NextState, now: Date): Promise<boolean> {
  return db.tx(async (q: Queryable) => {
    const rows = await q.query<{ attempt_count: number }>(
      `UPDATE webhook_deliveries SET
          status = $3, attempt_count = attempt_count + 1,
          schedule_step = CASE WHEN $3 = 'pending' THEN schedule_step + 1 ELSE schedule_step END,
          next_attempt_at = $4, locked_until = NULL, lease_token = NULL,
          last_status = $5, last_error = $6,
          delivered_at = CASE WHEN $3 = 'delivered' THEN $7::timestamptz ELSE delivered_at END,
          dead_at = CASE WHEN $3 = 'dead' THEN $7::timestamptz ELSE dead_at END,
          updated_at = $7
        WHERE id = $1 AND lease_token = $2
        RETURNING attempt_count`,
      [d.id, token, next.status, next.status === 'pending' ? next.nextAt.toISOString() : null, a.httpStatus, a.error, now.toISOString()],
    );
    if (rows.length === 0) return false;
    await q.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, duration_ms, http_status, error, success)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [d.id, rows[0]!.attempt_count, a.startedAt.toISOString(), Math.round(a.durationMs), a.httpStatus, a.error, a.success],
    );
    return true;
  });
}
