import type { Queryable } from '@app/shared';

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

/** One delivery as the operator sees it. Times are UTC. */
export interface DeliveryInfo {
  deliveryId: string;
  eventId: string;
  type: string;
  orderId: string;
  tenantId: string;
  source: string;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  occurredAt: Date;
  deliveredAt: Date | null;
  deadAt: Date | null;
}

/** One recorded attempt: start time (UTC), duration in ms, HTTP status or error. */
export interface AttemptInfo {
  attemptNo: number;
  startedAt: Date;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  success: boolean;
}

const SELECT_INFO = `SELECT d.id, d.event_id, e.type, e.order_id, d.tenant_id, d.source, d.status, d.attempt_count, d.next_attempt_at,
  d.last_status, d.last_error, e.occurred_at, d.delivered_at, d.dead_at
  FROM webhook_deliveries d JOIN webhook_events e ON e.event_id = d.event_id`;

type Timestamp = Date | string;

/** A row of SELECT_INFO (webhook_deliveries joined with its event). */
export interface DeliveryInfoRow {
  id: string;
  event_id: string;
  type: string;
  order_id: string;
  tenant_id: string;
  source: string;
  status: DeliveryInfo['status'];
  attempt_count: number | string;
  next_attempt_at: Timestamp | null;
  last_status: number | null;
  last_error: string | null;
  occurred_at: Timestamp;
  delivered_at: Timestamp | null;
  dead_at: Timestamp | null;
}

/** A `webhook_attempts` row. */
export interface AttemptRow {
  attempt_no: number | string;
  started_at: Timestamp;
  duration_ms: number | string;
  http_status: number | null;
  error: string | null;
  success: boolean;
}

const date = (v: Timestamp | null | undefined) => (v === null || v === undefined ? null : new Date(v));

/** The operator's view of a delivery row (times as UTC Dates, counts as numbers). */
export function rowToDeliveryInfo(r: DeliveryInfoRow): DeliveryInfo {
  return {
    deliveryId: r.id,
    eventId: r.event_id,
    type: r.type,
    orderId: r.order_id,
    tenantId: r.tenant_id,
    source: r.source,
    status: r.status,
    attempts: Number(r.attempt_count),
    nextAttemptAt: date(r.next_attempt_at),
    lastStatus: r.last_status,
    lastError: r.last_error,
    occurredAt: new Date(r.occurred_at),
    deliveredAt: date(r.delivered_at),
    deadAt: date(r.dead_at),
  };
}

/** One attempt-log row (duration in ms). */
export function rowToAttemptInfo(r: AttemptRow): AttemptInfo {
  return {
    attemptNo: Number(r.attempt_no),
    startedAt: new Date(r.started_at),
    durationMs: Number(r.duration_ms),
    httpStatus: r.http_status,
    error: r.error,
    success: r.success,
  };
}

/**
 * The `webhook_deliveries` and `webhook_attempts` tables: the dispatcher's claim and record of attempts, and the
 * operator's views and re-queues. Spec: Events, Delivery and retries.
 */
export class DeliveriesRepo {
  constructor(private readonly db: Queryable) {}

  /**
   * Claims up to `limit` due deliveries in one short transaction: rows `pending`, due at `now`, not under a live
   * lease, locked with FOR UPDATE SKIP LOCKED (so concurrent dispatchers take disjoint rows) and leased until
   * `now + leaseSeconds` under `token`. A dispatcher that dies keeps the lease only until it expires.
   */
  async claimDue(now: Date, limit: number, leaseSeconds: number, token: string): Promise<ClaimedDelivery[]> {
    const until = new Date(now.getTime() + leaseSeconds * 1000).toISOString();
    // One statement = one short transaction: the CTE (evaluated once) locks due rows, skipping rows another
    // dispatcher holds right now, and the update sets the lease before the locks are released.
    const rows = await this.db.query<{
      id: string;
      event_id: string;
      tenant_id: string;
      source: string;
      schedule_step: number;
      attempt_count: number;
      body: string;
      url: string | null;
      secret_enc: string | null;
      next_attempt_at: Date | string;
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
      id: r.id,
      eventId: r.event_id,
      tenantId: r.tenant_id,
      source: r.source,
      scheduleStep: r.schedule_step,
      attemptCount: r.attempt_count,
      body: r.body,
      url: r.url,
      secretEnc: r.secret_enc,
      dueAt: new Date(r.next_attempt_at),
    }));
  }

  /**
   * Writes the attempt and the delivery's next state in one transaction, only while `token` still holds the lease
   * (a dispatcher whose lease expired and was re-claimed must not overwrite the newer owner). Returns false then.
   */
  async finishAttempt(d: ClaimedDelivery, token: string, a: AttemptRecord, next: NextState, now: Date): Promise<boolean> {
    // One statement, so the state change and its log row commit together without a multi-statement transaction.
    const rows = await this.db.query<{ attempt_no: number }>(
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
      [
        d.id,
        token,
        next.status,
        next.status === 'pending' ? next.nextAt.toISOString() : null,
        a.httpStatus,
        a.error,
        now.toISOString(),
        a.startedAt.toISOString(),
        Math.round(a.durationMs),
        a.success,
      ],
    );
    return rows.length > 0;
  }

  /** Delivery counts per tenant, source and status (operator). */
  async countsByEndpoint(): Promise<{ tenantId: string; source: string; status: string; n: number }[]> {
    const rows = await this.db.query<{ tenant_id: string; source: string; status: string; n: number }>(
      'SELECT tenant_id, source, status, count(*)::int AS n FROM webhook_deliveries GROUP BY tenant_id, source, status',
    );
    return rows.map((r) => ({ tenantId: r.tenant_id, source: r.source, status: r.status, n: Number(r.n) }));
  }

  /** Deliveries of one order, newest first. */
  async ofOrder(orderId: string): Promise<DeliveryInfo[]> {
    return (await this.db.query<DeliveryInfoRow>(`${SELECT_INFO} WHERE e.order_id = $1 ORDER BY e.occurred_at DESC, d.id`, [orderId])).map(
      rowToDeliveryInfo,
    );
  }

  /** One delivery, or null. */
  async info(deliveryId: string): Promise<DeliveryInfo | null> {
    const r = (await this.db.query<DeliveryInfoRow>(`${SELECT_INFO} WHERE d.id = $1`, [deliveryId]))[0];
    return r ? rowToDeliveryInfo(r) : null;
  }

  /** Deliveries of a source (optionally one tenant and one status), newest first, at most `limit`. */
  async ofSource(f: { source: string; tenantId?: string; status?: DeliveryInfo['status']; limit?: number }): Promise<DeliveryInfo[]> {
    const rows = await this.db.query<DeliveryInfoRow>(
      `${SELECT_INFO} WHERE d.source = $1 AND ($2::text IS NULL OR d.tenant_id = $2) AND ($3::text IS NULL OR d.status = $3)
       ORDER BY e.occurred_at DESC, d.id LIMIT $4`,
      [f.source, f.tenantId ?? null, f.status ?? null, f.limit ?? 100],
    );
    return rows.map(rowToDeliveryInfo);
  }

  /** Attempt log of one delivery, oldest first. */
  async attemptsOf(deliveryId: string): Promise<AttemptInfo[]> {
    const rows = await this.db.query<AttemptRow>('SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_no', [deliveryId]);
    return rows.map(rowToAttemptInfo);
  }

  /**
   * Queues a delivery again at `now` with a fresh retry schedule, unless an attempt holds a live lease.
   * Returns 'requeued', 'in_flight' or 'missing'.
   */
  async requeue(deliveryId: string, now: Date): Promise<'requeued' | 'in_flight' | 'missing'> {
    const at = now.toISOString();
    const rows = await this.db.query<{ id: string }>(
      `UPDATE webhook_deliveries SET status = 'pending', schedule_step = 0, next_attempt_at = $2, dead_at = NULL, updated_at = $2
        WHERE id = $1 AND (locked_until IS NULL OR locked_until <= $2) RETURNING id`,
      [deliveryId, at],
    );
    if (rows.length > 0) return 'requeued';
    const exists = await this.db.query('SELECT 1 FROM webhook_deliveries WHERE id = $1', [deliveryId]);
    return exists.length ? 'in_flight' : 'missing';
  }

  /** Queues again every dead delivery of a source whose event occurred at or after `since`; returns how many. */
  async requeueDead(f: { source: string; tenantId?: string; since: Date }, now: Date): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE webhook_deliveries d SET status = 'pending', schedule_step = 0, next_attempt_at = $4, dead_at = NULL, updated_at = $4
         FROM webhook_events e
        WHERE e.event_id = d.event_id AND d.status = 'dead' AND d.source = $1 AND ($2::text IS NULL OR d.tenant_id = $2) AND e.occurred_at >= $3
        RETURNING d.id`,
      [f.source, f.tenantId ?? null, f.since.toISOString(), now.toISOString()],
    );
    return rows.length;
  }
}
