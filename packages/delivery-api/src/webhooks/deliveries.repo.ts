import type { Db } from '@app/shared';

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
  /** When it became due (event written, or its retry time); the claim's lag is measured from here. */
  dueAt: Date;
}

/**
 * Claims up to `limit` due deliveries in one short transaction: rows `pending`, due at `now`, not under a live
 * lease, locked with FOR UPDATE SKIP LOCKED (so concurrent dispatchers take disjoint rows) and leased until
 * `now + leaseSeconds` under `token`. A dispatcher that dies keeps the lease only until it expires.
 */
export async function claimDueDeliveries(db: Db, now: Date, limit: number, leaseSeconds: number, token: string): Promise<ClaimedDelivery[]> {
  const until = new Date(now.getTime() + leaseSeconds * 1000).toISOString();
  // One statement = one short transaction: the CTE (evaluated once) locks due rows, skipping rows another
  // dispatcher holds right now, and the update sets the lease before the locks are released.
  const rows = await db.query<{
    id: string; event_id: string; tenant_id: string; source: string; schedule_step: number; attempt_count: number;
    body: string; url: string | null; secret_enc: string | null; next_attempt_at: Date | string;
  }>(
    `WITH due AS (
       SELECT id, next_attempt_at FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
        ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
     UPDATE webhook_deliveries d SET locked_until = $3, lease_token = $4
       FROM due, webhook_events e
       LEFT JOIN webhook_endpoints p ON p.tenant_id = e.tenant_id AND p.source = e.source
      WHERE d.id = due.id AND e.event_id = d.event_id
      RETURNING d.id, d.event_id, d.tenant_id, d.source, d.schedule_step, d.attempt_count, e.body, p.url, p.secret_enc,
               due.next_attempt_at`,
    [now.toISOString(), limit, until, token],
  );
  return rows.map((r) => ({
    id: r.id, eventId: r.event_id, tenantId: r.tenant_id, source: r.source, scheduleStep: r.schedule_step,
    attemptCount: r.attempt_count, body: r.body, url: r.url, secretEnc: r.secret_enc, dueAt: new Date(r.next_attempt_at),
  }));
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
  // One statement, so the state change and its log row commit together without a multi-statement transaction.
  const rows = await db.query<{ attempt_no: number }>(
    `WITH u AS (
       UPDATE webhook_deliveries SET
          status = $3, attempt_count = attempt_count + 1,
          schedule_step = CASE WHEN $3 = 'pending' THEN schedule_step + 1 ELSE schedule_step END,
          next_attempt_at = $4, locked_until = NULL, lease_token = NULL,
          last_status = $5, last_error = $6,
          delivered_at = CASE WHEN $3 = 'delivered' THEN $7::timestamptz ELSE delivered_at END,
          dead_at = CASE WHEN $3 = 'dead' THEN $7::timestamptz ELSE dead_at END,
          updated_at = $7
        WHERE id = $1 AND lease_token = $2
        RETURNING id, attempt_count)
     INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, duration_ms, http_status, error, success)
     SELECT id, attempt_count, $8, $9, $5, $6, $10 FROM u
     RETURNING attempt_no`,
    [d.id, token, next.status, next.status === 'pending' ? next.nextAt.toISOString() : null, a.httpStatus, a.error, now.toISOString(),
      a.startedAt.toISOString(), Math.round(a.durationMs), a.success],
  );
  return rows.length > 0;
}
