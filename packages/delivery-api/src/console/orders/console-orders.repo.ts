import type { Queryable } from '@app/shared';

/** One row of the queue or of a search: what the list shows of an order. */
export interface OrderListRow {
  id: string;
  externalOrderId: string;
  source: string;
  pointId: string;
  state: string;
  cancelState: string;
  guestPhone: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Queue only: why it needs a person (`reconciliation`, `review`, `stuck_leg`, `refund`, `cancel_waiting`). */
  reasons: string[];
}

/** Search filters; empty ones are ignored. `phoneHash`/`phone` come together (the keyed hash and its E.164 phone). */
export interface OrderSearch {
  externalOrderId?: string;
  phone?: { e164: string; hash: string };
  pointId?: string;
  state?: string;
  /** Created on this Moscow day (YYYY-MM-DD). */
  date?: string;
}

/** A webhook event of the order with its delivery (docs/webhooks.md): kept only while an endpoint was configured. */
export interface OrderWebhookRow {
  eventId: string;
  type: string;
  occurredAt: Date;
  status: string | null;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
}

/** One entry of the order's history (`order_event_log`): an order event and the states it reported. */
export interface OrderHistoryRow {
  eventId: string;
  type: string;
  state: string | null;
  deliveryStatus: string | null;
  cancelState: string | null;
  occurredAt: Date;
}

/** The review note that closed a manual review. */
export interface ReviewClose {
  closedAt: Date;
  username: string;
  note: string;
}

interface ListRow {
  id: string;
  external_order_id: string;
  source: string;
  point_id: string;
  state: string;
  cancel_state: string;
  guest_phone: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  reasons?: string[] | null;
}

const toRow = (r: ListRow): OrderListRow => ({
  id: r.id,
  externalOrderId: r.external_order_id,
  source: r.source,
  pointId: r.point_id,
  state: r.state,
  cancelState: r.cancel_state,
  guestPhone: r.guest_phone,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
  reasons: (r.reasons ?? []).filter(Boolean),
});

const COLUMNS = 'o.id, o.external_order_id, o.source, o.point_id, o.state, o.cancel_state, o.guest_phone, o.created_at, o.updated_at';

/**
 * The console's reads of orders, legs and webhook events (all owned by their features; this only reads them) and
 * the one owner of `console_order_reviews` (migration 010).
 */
export class ConsoleOrdersRepo {
  constructor(private readonly db: Queryable) {}

  /**
   * Orders that need a person, oldest change first: `reconciliation_required`; `manual_review` not yet closed with
   * a note; a loyalty leg whose settlement gave up (`settle_failed`) or whose spend needs a refund decision; a
   * cancellation requested and not yet answered by the POS.
   */
  async queue(limit = 200): Promise<OrderListRow[]> {
    const rows = await this.db.query<ListRow>(
      `SELECT ${COLUMNS}, ARRAY[
                CASE WHEN o.state = 'reconciliation_required' THEN 'reconciliation' END,
                CASE WHEN o.state = 'manual_review' AND r.order_id IS NULL THEN 'review' END,
                CASE WHEN EXISTS (SELECT 1 FROM loyalty_legs l WHERE l.order_id = o.id AND l.state = 'settle_failed') THEN 'stuck_leg' END,
                CASE WHEN EXISTS (SELECT 1 FROM loyalty_legs l WHERE l.order_id = o.id AND l.refund_state = 'required') THEN 'refund' END,
                CASE WHEN o.cancel_state = 'requested' THEN 'cancel_waiting' END
              ] AS reasons
         FROM orders o LEFT JOIN console_order_reviews r ON r.order_id = o.id
        WHERE o.state = 'reconciliation_required'
           OR (o.state = 'manual_review' AND r.order_id IS NULL)
           OR o.cancel_state = 'requested'
           OR EXISTS (SELECT 1 FROM loyalty_legs l WHERE l.order_id = o.id AND (l.state = 'settle_failed' OR l.refund_state = 'required'))
        ORDER BY o.updated_at, o.id LIMIT $1`,
      [limit],
    );
    return rows.map(toRow);
  }

  /** Orders matching every given filter, newest first, at most `limit`. */
  async search(s: OrderSearch, limit = 100): Promise<OrderListRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    const arg = (v: unknown) => {
      args.push(v);
      return `$${args.length}`;
    };
    if (s.externalOrderId) where.push(`o.external_order_id = ${arg(s.externalOrderId)}`);
    if (s.phone) {
      // the keyed hash (migration 009); orders the guest feature has not indexed yet are matched on the stored phone
      where.push(`(o.guest_phone_hash = ${arg(s.phone.hash)} OR (o.guest_phone_hash IS NULL AND o.guest_phone = ${arg(s.phone.e164)}))`);
    }
    if (s.pointId) where.push(`o.point_id = ${arg(s.pointId)}`);
    if (s.state) where.push(`o.state = ${arg(s.state)}`);
    if (s.date) {
      const from = arg(`${s.date}T00:00:00+03:00`);
      where.push(`o.created_at >= ${from}::timestamptz AND o.created_at < ${from}::timestamptz + interval '1 day'`);
    }
    const rows = await this.db.query<ListRow>(
      `SELECT ${COLUMNS} FROM orders o ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY o.created_at DESC, o.id DESC LIMIT ${arg(limit)}`,
      args,
    );
    return rows.map(toRow);
  }

  /** Every order event reported for the order (written with the outbox rows, subscribed or not), in order. */
  async history(orderId: string): Promise<OrderHistoryRow[]> {
    const rows = await this.db.query<{
      event_id: string;
      type: string;
      state: string | null;
      delivery_status: string | null;
      cancel_state: string | null;
      occurred_at: Date | string;
    }>(
      `SELECT event_id, type, state, delivery_status, cancel_state, occurred_at FROM order_event_log
        WHERE order_id = $1 ORDER BY occurred_at, seq`,
      [orderId],
    );
    return rows.map((r) => ({
      eventId: r.event_id,
      type: r.type,
      state: r.state,
      deliveryStatus: r.delivery_status,
      cancelState: r.cancel_state,
      occurredAt: new Date(r.occurred_at),
    }));
  }

  /** The order's webhook events with their delivery, in order. */
  async webhooks(orderId: string): Promise<OrderWebhookRow[]> {
    const rows = await this.db.query<{
      event_id: string;
      type: string;
      occurred_at: Date | string;
      status: string | null;
      attempt_count: number | null;
      last_status: number | null;
      last_error: string | null;
      delivered_at: Date | string | null;
    }>(
      `SELECT e.event_id, e.type, e.occurred_at, d.status, d.attempt_count, d.last_status, d.last_error, d.delivered_at
         FROM webhook_events e LEFT JOIN webhook_deliveries d ON d.event_id = e.event_id
        WHERE e.order_id = $1 ORDER BY e.occurred_at, e.event_id`,
      [orderId],
    );
    return rows.map((r) => ({
      eventId: r.event_id,
      type: r.type,
      occurredAt: new Date(r.occurred_at),
      status: r.status,
      attempts: r.attempt_count ?? 0,
      lastStatus: r.last_status,
      lastError: r.last_error,
      deliveredAt: r.delivered_at ? new Date(r.delivered_at) : null,
    }));
  }

  async review(orderId: string): Promise<ReviewClose | null> {
    const r = (
      await this.db.query<{ closed_at: Date | string; username: string; note: string }>(
        'SELECT closed_at, username, note FROM console_order_reviews WHERE order_id = $1',
        [orderId],
      )
    )[0];
    return r ? { closedAt: new Date(r.closed_at), username: r.username, note: r.note } : null;
  }

  /** Closes the review once; false when it was already closed. */
  async closeReview(orderId: string, c: ReviewClose): Promise<boolean> {
    const rows = await this.db.query(
      'INSERT INTO console_order_reviews (order_id, closed_at, username, note) VALUES ($1, $2, $3, $4) ON CONFLICT (order_id) DO NOTHING RETURNING order_id',
      [orderId, c.closedAt, c.username, c.note],
    );
    return rows.length > 0;
  }
}
