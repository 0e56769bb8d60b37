import { systemClock, type Clock, type Db } from '@app/shared';
import { listWebhookConfigs, type WebhookEndpointInfo } from './webhook-config.js';

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
export interface AttemptInfo { attemptNo: number; startedAt: Date; durationMs: number; httpStatus: number | null; error: string | null; success: boolean }

const SELECT = `SELECT d.id, d.event_id, e.type, e.order_id, d.tenant_id, d.source, d.status, d.attempt_count, d.next_attempt_at,
  d.last_status, d.last_error, e.occurred_at, d.delivered_at, d.dead_at
  FROM webhook_deliveries d JOIN webhook_events e ON e.event_id = d.event_id`;

type Row = Record<string, unknown>;
const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
const toInfo = (r: Row): DeliveryInfo => ({
  deliveryId: r.id as string, eventId: r.event_id as string, type: r.type as string, orderId: r.order_id as string,
  tenantId: r.tenant_id as string, source: r.source as string, status: r.status as DeliveryInfo['status'],
  attempts: Number(r.attempt_count), nextAttemptAt: date(r.next_attempt_at), lastStatus: r.last_status as number | null,
  lastError: r.last_error as string | null, occurredAt: date(r.occurred_at)!, deliveredAt: date(r.delivered_at), deadAt: date(r.dead_at),
});

/** Endpoints with the count of their deliveries per status. Never shows secrets. */
export async function showWebhooks(db: Db, tenantId?: string): Promise<(WebhookEndpointInfo & { counts: Record<string, number> })[]> {
  const eps = await listWebhookConfigs(db, tenantId);
  const counts = await db.query<{ tenant_id: string; source: string; status: string; n: number }>(
    'SELECT tenant_id, source, status, count(*)::int AS n FROM webhook_deliveries GROUP BY tenant_id, source, status',
  );
  return eps.map((e) => ({
    ...e,
    counts: Object.fromEntries(counts.filter((c) => c.tenant_id === e.tenantId && c.source === e.source).map((c) => [c.status, Number(c.n)])),
  }));
}

/** Deliveries of one order (with attempts), newest first. */
export async function deliveriesOfOrder(db: Db, orderId: string): Promise<(DeliveryInfo & { attemptLog: AttemptInfo[] })[]> {
  const rows = (await db.query<Row>(`${SELECT} WHERE e.order_id = $1 ORDER BY e.occurred_at DESC, d.id`, [orderId])).map(toInfo);
  return Promise.all(rows.map(async (d) => ({ ...d, attemptLog: await attemptsOf(db, d.deliveryId) })));
}

/** Attempt log of one delivery, oldest first. */
export async function attemptsOf(db: Db, deliveryId: string): Promise<AttemptInfo[]> {
  const rows = await db.query<Row>('SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_no', [deliveryId]);
  return rows.map((r) => ({
    attemptNo: Number(r.attempt_no), startedAt: date(r.started_at)!, durationMs: Number(r.duration_ms),
    httpStatus: r.http_status as number | null, error: r.error as string | null, success: r.success as boolean,
  }));
}

/** Deliveries of a source (optionally one tenant and one status), newest first, at most `limit`. */
export async function deliveriesOfSource(db: Db, f: { source: string; tenantId?: string; status?: DeliveryInfo['status']; limit?: number }): Promise<DeliveryInfo[]> {
  const rows = await db.query<Row>(
    `${SELECT} WHERE d.source = $1 AND ($2::text IS NULL OR d.tenant_id = $2) AND ($3::text IS NULL OR d.status = $3)
     ORDER BY e.occurred_at DESC, d.id LIMIT $4`,
    [f.source, f.tenantId ?? null, f.status ?? null, f.limit ?? 100],
  );
  return rows.map(toInfo);
}

/**
 * Queues a delivery again, now, with a fresh retry schedule; the eventId and body stay the same (the receiver
 * de-duplicates). Allowed for dead, delivered and pending deliveries, but not while an attempt is in flight.
 * @throws WebhookOperatorError when the delivery does not exist or is being sent.
 */
export async function replayDelivery(db: Db, deliveryId: string, clock: Clock = systemClock): Promise<DeliveryInfo> {
  const now = clock.now().toISOString();
  const rows = await db.query<{ id: string }>(
    `UPDATE webhook_deliveries SET status = 'pending', schedule_step = 0, next_attempt_at = $2, dead_at = NULL, updated_at = $2
      WHERE id = $1 AND (locked_until IS NULL OR locked_until <= $2) RETURNING id`,
    [deliveryId, now],
  );
  if (rows.length === 0) {
    const exists = await db.query('SELECT 1 FROM webhook_deliveries WHERE id = $1', [deliveryId]);
    throw new WebhookOperatorError(exists.length ? `delivery ${deliveryId} is being sent right now; try again in a minute` : `no delivery ${deliveryId}`);
  }
  return toInfo((await db.query<Row>(`${SELECT} WHERE d.id = $1`, [deliveryId]))[0]!);
}

/** Queues again every dead delivery of a source whose event occurred at or after `since`; returns how many. */
export async function replayDead(db: Db, f: { source: string; tenantId?: string; since: Date }, clock: Clock = systemClock): Promise<number> {
  const now = clock.now().toISOString();
  const rows = await db.query<{ id: string }>(
    `UPDATE webhook_deliveries d SET status = 'pending', schedule_step = 0, next_attempt_at = $4, dead_at = NULL, updated_at = $4
       FROM webhook_events e
      WHERE e.event_id = d.event_id AND d.status = 'dead' AND d.source = $1 AND ($2::text IS NULL OR d.tenant_id = $2) AND e.occurred_at >= $3
      RETURNING d.id`,
    [f.source, f.tenantId ?? null, f.since.toISOString(), now],
  );
  return rows.length;
}

/** A refused operator request (unknown delivery, delivery in flight). */
export class WebhookOperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookOperatorError';
  }
}
