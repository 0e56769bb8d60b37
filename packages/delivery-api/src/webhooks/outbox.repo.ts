import type { Queryable } from '@app/shared';
import type { EventsWrite } from '../orders/order-events.js';

/**
 * One webhook event as the transactional outbox stores it, with the id of its first delivery. Built by the
 * webhooks feature (`createOutboxOrderEvents`: body serialised per the spec's Events section); written here.
 */
export interface OutboxEntry {
  /** The partner-visible event id (UUID). */
  eventId: string;
  tenantId: string;
  source: string;
  orderId: string;
  /** An `OrderEventType`. */
  type: string;
  /** ISO 8601 UTC instant of the change; also when the first delivery is due. */
  occurredAt: string;
  /** The serialised webhook body, sent byte for byte. */
  body: string;
  /** Internal id of the first delivery (operator commands); never shown to the partner. */
  deliveryId: string;
}

/**
 * The outbox rows of `$<param>` (a jsonb array of {@link OutboxEntry} in snake case, see {@link outboxParam}) as
 * data-modifying CTEs for a caller's own statement, the last one `events_written` (one row per written delivery): an entry is written
 * only when its (tenant, source) has a webhook endpoint subscribed to its type (decision: no backlog for a URL set
 * later, docs/webhooks.md), with one `pending` delivery due at `occurred_at`. Every entry, subscribed or not, also
 * goes into `order_event_log` (the order's history: type and states, no body; the console's timeline). `gate` names a CTE or table whose
 * rows gate the writes (e.g. the inserted order: no order, no events); null = always. The text depends on the
 * arguments only, so a named prepared statement that embeds it stays the same.
 */
export function outboxCtes(param: number, gate: string | null): string {
  const from = gate ? `${gate}, ` : '';
  return `outbox_in AS (
       SELECT * FROM jsonb_to_recordset($${param}::jsonb) AS e(event_id uuid, tenant_id text, source text, order_id uuid, type text,
         occurred_at timestamptz, body text, delivery_id uuid)
     ), order_log AS (
       INSERT INTO order_event_log (event_id, order_id, type, state, delivery_status, cancel_state, occurred_at)
       SELECT e.event_id, e.order_id, e.type, b.o->>'state', b.o->>'deliveryStatus', b.o->>'cancelState', e.occurred_at
         FROM ${from}outbox_in e CROSS JOIN LATERAL (SELECT e.body::jsonb->'order' AS o) b
       ON CONFLICT (event_id) DO NOTHING
       RETURNING 1
     ), outbox_events AS (
       INSERT INTO webhook_events (event_id, tenant_id, source, order_id, type, occurred_at, body)
       SELECT e.event_id, e.tenant_id, e.source, e.order_id, e.type, e.occurred_at, e.body FROM ${from}outbox_in e
        WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.tenant_id = e.tenant_id AND w.source = e.source
                        AND (w.events IS NULL OR w.events @> to_jsonb(e.type)))
       RETURNING event_id
     ), events_written AS (
       INSERT INTO webhook_deliveries (id, event_id, tenant_id, source, status, next_attempt_at, created_at, updated_at)
       SELECT e.delivery_id, e.event_id, e.tenant_id, e.source, 'pending', e.occurred_at, e.occurred_at, e.occurred_at
         FROM outbox_events v JOIN outbox_in e ON e.event_id = v.event_id
       RETURNING 1
     )`;
}

/** The parameter value for {@link outboxCtes}: the entries as a JSON array with the SQL column names. */
export function outboxParam(entries: OutboxEntry[]): string {
  return JSON.stringify(
    entries.map((e) => ({
      event_id: e.eventId,
      tenant_id: e.tenantId,
      source: e.source,
      order_id: e.orderId,
      type: e.type,
      occurred_at: e.occurredAt,
      body: e.body,
      delivery_id: e.deliveryId,
    })),
  );
}

/** The {@link EventsWrite} of `entries`: the outbox rows as CTEs of the caller's statement. */
export function outboxWrite(entries: OutboxEntry[]): EventsWrite {
  return { ctes: outboxCtes, value: outboxParam(entries) };
}

/** SQL access to the webhook outbox (`webhook_events` and their `webhook_deliveries`). */
export class OutboxRepo {
  constructor(private readonly q: Queryable) {}

  /**
   * Writes `entries` in one statement, inside the caller's transaction when `q` is one (transactional outbox:
   * the events exist exactly when the change they report was committed). Entries without a subscribed endpoint
   * are dropped (see {@link outboxCtes}). No statement for an empty list.
   */
  async enqueue(entries: OutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.q.query(`WITH ${outboxCtes(1, null)} SELECT count(*) FROM events_written`, [outboxParam(entries)]);
  }

  /**
   * The id of the event with `coalesceKey` of (tenant, source) whose only delivery is still waiting (pending, never
   * tried, due after `now`), or null. The delivery row is locked (`FOR UPDATE`), so call it inside a transaction:
   * the dispatcher cannot claim the delivery between this check and {@link replaceBody}.
   */
  async lockWaitingCoalesced(tenantId: string, source: string, coalesceKey: string, now: Date): Promise<string | null> {
    const rows = await this.q.query<{ event_id: string }>(
      `SELECT e.event_id FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.event_id
        WHERE e.tenant_id = $1 AND e.source = $2 AND e.coalesce_key = $3
          AND d.status = 'pending' AND d.attempt_count = 0 AND d.next_attempt_at > $4
        FOR UPDATE OF d`,
      [tenantId, source, coalesceKey, now.toISOString()],
    );
    return rows[0]?.event_id ?? null;
  }

  /** Replaces the body and occurrence time (ISO 8601 UTC) of a waiting event. */
  async replaceBody(eventId: string, body: string, occurredAt: string): Promise<void> {
    await this.q.query(`UPDATE webhook_events SET body = $2, occurred_at = $3 WHERE event_id = $1`, [eventId, body, occurredAt]);
  }

  /**
   * Writes one event not tied to an order (catalog events) with `coalesceKey` and its one `pending` delivery due at
   * `dueAt`. Unlike {@link enqueue} it does not check the endpoint subscription: the caller chose the targets.
   */
  async enqueueCoalescible(e: CoalescibleEntry): Promise<void> {
    await this.q.query(
      `INSERT INTO webhook_events (event_id, tenant_id, source, order_id, type, occurred_at, body, coalesce_key)
       VALUES ($1, $2, $3, NULL, $4, $5, $6, $7)`,
      [e.eventId, e.tenantId, e.source, e.type, e.occurredAt, e.body, e.coalesceKey],
    );
    await this.q.query(
      `INSERT INTO webhook_deliveries (id, event_id, tenant_id, source, status, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6, $6)`,
      [e.deliveryId, e.eventId, e.tenantId, e.source, e.dueAt, e.createdAt],
    );
  }
}

/** An event without an order that a newer one of the same `coalesceKey` may replace while it waits. */
export interface CoalescibleEntry {
  eventId: string;
  tenantId: string;
  source: string;
  type: string;
  /** ISO 8601 UTC instant of the change. */
  occurredAt: string;
  /** The serialised webhook body, sent byte for byte. */
  body: string;
  /** e.g. `menu.updated:<pointId>`. */
  coalesceKey: string;
  deliveryId: string;
  /** ISO 8601 UTC instant the first delivery is due. */
  dueAt: string;
  /** ISO 8601 UTC instant the rows are written. */
  createdAt: string;
}
