import type { Queryable } from '@app/shared';
import type { HoldKind, LoyaltyDiscount } from '../loyalty/loyalty.port.js';
import { legSources, type LegCause, type LegState } from './leg-states.js';
import type { OrderState } from '@app/delivery-contract';

export type { LegState };

/** One loyalty hold leg of an order attempt. Amounts in kopecks; times UTC. */
export interface LegRecord {
  id: string;
  kind: HoldKind;
  state: LegState;
  amountMinor: number;
  holdId: string | null;
  holdKey: string | null;
  orderId: string | null;
  organizationId: string;
  phone: string | null;
  coupon: string | null;
  certificateSerialEnc: string | null;
  /** Coupon legs: the POS discount line the coupon granted when held (reused by a retry). */
  discount: LoyaltyDiscount | null;
  /** Failed confirm/release calls so far. */
  settleAttempts: number;
  /** A spend a person must decide on (docs/loyalty.md "Cancellation of a verified order"); null = none. */
  refundState: 'required' | 'done' | null;
  lastError: string | null;
  externalOrderId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What the sweeper's `held` work list reads of a leg's order with the leg. */
export interface HeldLegOrder {
  id: string;
  state: OrderState;
  cancelState: string;
  updatedAt: Date;
}

/** The attempt a leg belongs to: the order's idempotency key plus the body's hash. */
export interface Attempt {
  tenantId: string;
  source: string;
  externalOrderId: string;
  payloadSha256: string;
}

/** A `loyalty_legs` row (SELECT * / RETURNING *), with the order's external id where the query joins it. */
export interface LegRow {
  id: string;
  kind: HoldKind;
  state: LegState;
  amount_minor: number | string;
  hold_id: string | null;
  hold_key: string | null;
  order_id: string | null;
  organization_id: string;
  phone: string | null;
  coupon: string | null;
  certificate_serial_enc: string | null;
  discount: LoyaltyDiscount | null;
  settle_attempts: number | string | null;
  refund_state?: 'required' | 'done' | null;
  last_error: string | null;
  external_order_id: string;
  payload_sha256?: string;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A leg row as the holds code uses it (amount in kopecks as a number, times as UTC Dates). */
export function rowToLeg(r: LegRow): LegRecord {
  return {
    id: r.id,
    kind: r.kind,
    state: r.state,
    amountMinor: Number(r.amount_minor),
    holdId: r.hold_id ?? null,
    holdKey: r.hold_key ?? null,
    orderId: r.order_id ?? null,
    organizationId: r.organization_id,
    phone: r.phone ?? null,
    coupon: r.coupon ?? null,
    certificateSerialEnc: r.certificate_serial_enc ?? null,
    discount: r.discount ?? null,
    settleAttempts: Number(r.settle_attempts ?? 0),
    refundState: r.refund_state ?? null,
    lastError: r.last_error ?? null,
    externalOrderId: r.external_order_id,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** SQL access to loyalty legs. Each method is one statement, so it is its own recovery point. */
/**
 * The legs' part of order creation's one statement (OrdersRepo.create), SQL owned here beside the rest of the
 * `loyalty_legs` queries. Data-modifying CTEs have to sit in the statement that inserts the order to keep it atomic
 * without BEGIN/COMMIT, so the order repository asks for the text instead of a call. Parameters are positions of that
 * statement; the text depends on its arguments only, so it can sit in a named prepared statement.
 */
export const orderCreationLegs = {
  /**
   * CTE `legs` (no `WITH`): locks the legs `$ids` of one attempt (tenant, source, external order id, body hash) that
   * are still `held` and unlinked, and CTE `legs_ok`: whether that is every one of `$ids`.
   */
  lockHeld(p: { tenant: number; source: number; externalOrderId: number; payloadSha256: number; ids: number }): string {
    return `legs AS (
         SELECT id FROM loyalty_legs
          WHERE tenant_id = $${p.tenant} AND source = $${p.source} AND external_order_id = $${p.externalOrderId}
            AND payload_sha256 = $${p.payloadSha256} AND id = ANY($${p.ids}::uuid[]) AND state = 'held' AND order_id IS NULL
          FOR UPDATE
       ), legs_ok AS (
         SELECT count(*) = cardinality($${p.ids}::uuid[]) AS ok FROM legs
       )`;
  },
  /** CTE `linked`: links the locked legs to the order of CTE `orderCte` (column `id`) and makes them due now. */
  link(orderCte: string): string {
    return `linked AS (
         UPDATE loyalty_legs l SET order_id = ${orderCte}.id, check_after = '1970-01-01T00:00:00Z', waits_for_order = false
           FROM ${orderCte} WHERE l.id IN (SELECT id FROM legs)
         RETURNING l.id
       )`;
  },
  /**
   * A scalar subquery: the legs of one external order id as a jsonb array of rows ordered by kind (`LegRow`s), read
   * in the same statement as the order (idempotency lookup).
   */
  ofExternalOrderJson(p: { tenant: number; source: number; externalOrderId: number }): string {
    return `(SELECT COALESCE(jsonb_agg(to_jsonb(l) ORDER BY l.kind), '[]'::jsonb) FROM loyalty_legs l
                WHERE l.tenant_id = $${p.tenant} AND l.source = $${p.source} AND l.external_order_id = $${p.externalOrderId})`;
  },
};

export class LegsRepo {
  constructor(private readonly q: Queryable) {}

  /**
   * Wakes the legs of `orderId` that wait for it to move (see {@link waitForOrder}): due now, no longer waiting.
   * Run by OrdersRepo.update on a change of state in the caller's transaction (same Queryable).
   */
  async wakeForOrder(orderId: string): Promise<void> {
    await this.q.query(
      `UPDATE loyalty_legs SET check_after = '1970-01-01T00:00:00Z', waits_for_order = false WHERE order_id = $1 AND waits_for_order`,
      [orderId],
    );
  }

  /**
   * Records a leg as `holding` unless the attempt already has a leg of this kind. Returns the leg and whether
   * this call created it (the unique constraint decides, never a check-then-insert).
   */
  async insertHolding(
    a: Attempt,
    leg: Omit<
      LegRecord,
      'state' | 'holdId' | 'orderId' | 'externalOrderId' | 'settleAttempts' | 'refundState' | 'lastError' | 'createdAt' | 'updatedAt'
    >,
    now: Date,
  ): Promise<{ leg: LegRecord; created: boolean }> {
    const rows = await this.q.query<LegRow>(
      `INSERT INTO loyalty_legs (id, tenant_id, source, external_order_id, payload_sha256, kind, organization_id, phone, coupon,
         certificate_serial_enc, amount_minor, state, hold_key, created_at, updated_at, discount)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,'holding',$12,$13,$13,$14::jsonb)
       ON CONFLICT ON CONSTRAINT loyalty_legs_attempt DO NOTHING RETURNING *`,
      [
        leg.id,
        a.tenantId,
        a.source,
        a.externalOrderId,
        a.payloadSha256,
        leg.kind,
        leg.organizationId,
        leg.phone,
        leg.coupon,
        leg.certificateSerialEnc,
        leg.amountMinor,
        leg.holdKey,
        now.toISOString(),
        leg.discount ? JSON.stringify(leg.discount) : null,
      ],
    );
    if (rows[0]) return { leg: rowToLeg(rows[0]), created: true };
    const existing = await this.q.query<LegRow>(
      `SELECT * FROM loyalty_legs WHERE tenant_id = $1 AND source = $2 AND external_order_id = $3 AND payload_sha256 = $4 AND kind = $5`,
      [a.tenantId, a.source, a.externalOrderId, a.payloadSha256, leg.kind],
    );
    return { leg: rowToLeg(existing[0]), created: false };
  }

  /**
   * Moves a leg to `to` by `cause` when its current state is a source of that move in LEG_TRANSITIONS
   * (compare-and-set); returns null when it was not. `unlinked` also requires that no order owns the leg.
   */
  async move(
    id: string,
    cause: LegCause,
    to: LegState,
    now: Date,
    set: {
      holdId?: string;
      holdKey?: string;
      amountMinor?: number;
      error?: string | null;
      discount?: LoyaltyDiscount | null;
      unlinked?: boolean;
    } = {},
  ): Promise<LegRecord | null> {
    const from = legSources(to, cause);
    if (from.length === 0) throw new Error(`loyalty leg: no transition to ${to} by ${cause}`);
    const rows = await this.q.query<LegRow>(
      `UPDATE loyalty_legs SET state = $3, updated_at = $4, check_after = '1970-01-01T00:00:00Z', waits_for_order = false,
         hold_id = COALESCE($5, hold_id), hold_key = COALESCE($6, hold_key), amount_minor = COALESCE($7, amount_minor), last_error = $8,
         discount = CASE WHEN $9::boolean THEN $10::jsonb ELSE discount END,
         settle_attempts = CASE WHEN $3 IN ('held', 'holding') THEN 0 ELSE settle_attempts END
       WHERE id = $1 AND state = ANY($2::text[])${set.unlinked ? ' AND order_id IS NULL' : ''} RETURNING *`,
      [
        id,
        from,
        to,
        now.toISOString(),
        set.holdId ?? null,
        set.holdKey ?? null,
        set.amountMinor ?? null,
        set.error ?? null,
        set.discount !== undefined,
        set.discount ? JSON.stringify(set.discount) : null,
      ],
    );
    return rows[0] ? rowToLeg(rows[0]) : null;
  }

  /** Records a failed confirm/release call (the leg keeps its state); returns the attempts so far. */
  async recordSettleFailure(id: string, error: string, retryAt: Date): Promise<number> {
    const rows = await this.q.query<{ settle_attempts: number }>(
      `UPDATE loyalty_legs SET settle_attempts = settle_attempts + 1, last_error = $2, check_after = $3, waits_for_order = false
        WHERE id = $1 RETURNING settle_attempts`,
      [id, error, retryAt.toISOString()],
    );
    return Number(rows[0]?.settle_attempts ?? 0);
  }

  /**
   * Gives back a claim that is still the caller's (`mark`): the leg is in the work list again at once (the sweeper
   * looked and found nothing to do now; a settlement path may take it). No-op when the leg moved or got a retry time.
   */
  async unclaim(id: string, mark: Date): Promise<void> {
    await this.q.query(`UPDATE loyalty_legs SET check_after = '1970-01-01T00:00:00Z' WHERE id = $1 AND check_after = $2`, [id, mark.toISOString()]);
  }

  /**
   * Puts off the next look at a leg without counting a failed attempt (the loyalty service answered 429: its write
   * budget, not the leg, is the problem).
   */
  async defer(id: string, until: Date, why: string): Promise<void> {
    await this.q.query(`UPDATE loyalty_legs SET check_after = $2, last_error = $3, waits_for_order = false WHERE id = $1`, [
      id,
      until.toISOString(),
      why,
    ]);
  }

  /**
   * Takes held legs out of the sweeper's work list until `until` or until their order moves, whichever is first:
   * each only while it is still `held`, unclaimed, and its order is unchanged since the sweeper read it (`orderUpdatedAt`;
   * the order row is locked FOR SHARE, so an order change that commits meanwhile is seen and the leg stays in the
   * list). OrdersRepo.update wakes the legs of an order whose state or cancel state changes. Returns how many.
   */
  async waitForOrder(legs: { id: string; orderId: string; orderUpdatedAt: Date; until: Date }[], now: Date): Promise<number> {
    if (legs.length === 0) return 0;
    const rows = await this.q.query<{ id: string }>(
      `WITH locked AS (SELECT o.id, o.updated_at FROM orders o WHERE o.id = ANY($2::uuid[]) FOR SHARE)
       UPDATE loyalty_legs l SET check_after = w.until, waits_for_order = true
         FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::timestamptz[]) AS w(id, order_id, order_updated_at, until), locked
        WHERE l.id = w.id AND l.order_id = w.order_id AND locked.id = w.order_id AND locked.updated_at = w.order_updated_at
          AND l.state = 'held' AND l.check_after <= $5
        RETURNING l.id`,
      [
        legs.map((l) => l.id),
        legs.map((l) => l.orderId),
        legs.map((l) => l.orderUpdatedAt.toISOString()),
        legs.map((l) => l.until.toISOString()),
        now.toISOString(),
      ],
    );
    return rows.length;
  }

  /** Held legs that no order owns yet are looked at again when their 30 minutes are up (linking an order resets it). */
  async deferUnlinked(legs: { id: string; until: Date }[], now: Date): Promise<number> {
    if (legs.length === 0) return 0;
    const rows = await this.q.query<{ id: string }>(
      `UPDATE loyalty_legs l SET check_after = w.until
         FROM unnest($1::uuid[], $2::timestamptz[]) AS w(id, until)
        WHERE l.id = w.id AND l.state = 'held' AND l.order_id IS NULL AND l.check_after <= $3
        RETURNING l.id`,
      [legs.map((l) => l.id), legs.map((l) => l.until.toISOString()), now.toISOString()],
    );
    return rows.length;
  }

  /**
   * The sweeper's `held` work list: held legs last changed before `before`, neither claimed nor waiting past `now`,
   * oldest first, each with the state of its order as read now (null when no order owns it).
   */
  async staleHeld(before: Date, limit: number, now: Date): Promise<{ leg: LegRecord; order: HeldLegOrder | null }[]> {
    const rows = await this.q.query<
      LegRow & { o_id: string | null; o_state: OrderState | null; o_cancel_state: string | null; o_updated_at: Date | string | null }
    >(
      `SELECT l.*, o.id AS o_id, o.state AS o_state, o.cancel_state AS o_cancel_state, o.updated_at AS o_updated_at
         FROM loyalty_legs l LEFT JOIN orders o ON o.id = l.order_id
        WHERE l.state = 'held' AND l.updated_at < $1 AND l.check_after <= $2
        ORDER BY l.updated_at LIMIT $3`,
      [before.toISOString(), now.toISOString(), limit],
    );
    return rows.map((r) => ({
      leg: rowToLeg(r),
      order: r.o_id ? { id: r.o_id, state: r.o_state!, cancelState: r.o_cancel_state!, updatedAt: new Date(r.o_updated_at!) } : null,
    }));
  }

  /**
   * Flags the order's legs that were or are being spent (held, confirmed, settle_failed) as a refund a person must
   * decide; returns them.
   */
  async flagRefund(orderId: string, now: Date, note: string): Promise<LegRecord[]> {
    return (
      await this.q.query<LegRow>(
        `UPDATE loyalty_legs SET refund_state = 'required', refund_flagged_at = $2, refund_note = $3
          WHERE order_id = $1 AND state IN ('holding', 'held', 'confirmed', 'settle_failed') AND refund_state IS NULL RETURNING *`,
        [orderId, now.toISOString(), note],
      )
    ).map(rowToLeg);
  }

  /** Flags one leg (no order) whose hold the loyalty service reported as already spent. */
  async flagLegRefund(id: string, now: Date, note: string): Promise<void> {
    await this.q.query(`UPDATE loyalty_legs SET refund_state = 'required', refund_flagged_at = $2, refund_note = $3 WHERE id = $1`, [
      id,
      now.toISOString(),
      note,
    ]);
  }

  /** Legs whose refund a person must decide (operator: `order refunds`), oldest first. */
  async refundsRequired(limit = 200): Promise<(LegRecord & { refundNote: string | null; refundFlaggedAt: Date | null })[]> {
    const rows = await this.q.query<LegRow & { refund_note: string | null; refund_flagged_at: Date | string | null }>(
      `SELECT * FROM loyalty_legs WHERE refund_state = 'required' ORDER BY refund_flagged_at LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      ...rowToLeg(r),
      refundNote: r.refund_note ?? null,
      refundFlaggedAt: r.refund_flagged_at ? new Date(r.refund_flagged_at) : null,
    }));
  }

  /** Records a person's refund decision on a flagged leg; null when the leg is not flagged `required`. */
  async refundDone(id: string, note: string): Promise<LegRecord | null> {
    const rows = await this.q.query<LegRow>(
      `UPDATE loyalty_legs SET refund_state = 'done', refund_note = COALESCE(refund_note || E'\n', '') || $2
        WHERE id = $1 AND refund_state = 'required' RETURNING *`,
      [id, note],
    );
    return rows[0] ? rowToLeg(rows[0]) : null;
  }

  /** Number of legs whose refund is still to be decided (metrics). */
  async countRefundsRequired(): Promise<number> {
    const rows = await this.q.query<{ n: number }>(`SELECT count(*)::int AS n FROM loyalty_legs WHERE refund_state = 'required'`);
    return Number(rows[0]?.n ?? 0);
  }

  /** Every leg of one order attempt (any state), by kind. */
  async forAttempt(a: Attempt): Promise<LegRecord[]> {
    return (
      await this.q.query<LegRow>(
        `SELECT * FROM loyalty_legs WHERE tenant_id = $1 AND source = $2 AND external_order_id = $3 AND payload_sha256 = $4 ORDER BY kind`,
        [a.tenantId, a.source, a.externalOrderId, a.payloadSha256],
      )
    ).map(rowToLeg);
  }

  /** Legs in `settle_failed` (operator: `order legs --stuck`), oldest first. */
  async stuck(limit = 200): Promise<LegRecord[]> {
    return (await this.q.query<LegRow>(`SELECT * FROM loyalty_legs WHERE state = 'settle_failed' ORDER BY updated_at LIMIT $1`, [limit])).map(
      rowToLeg,
    );
  }

  /** Number of legs per state (metrics). */
  async countByState(): Promise<Record<string, number>> {
    const rows = await this.q.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM loyalty_legs GROUP BY state`);
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }

  async forOrder(orderId: string): Promise<LegRecord[]> {
    return (await this.q.query<LegRow>(`SELECT * FROM loyalty_legs WHERE order_id = $1 ORDER BY kind`, [orderId])).map(rowToLeg);
  }

  /**
   * Legs in `states` last changed before `before` and not deferred past `now`, oldest first (the sweeper's
   * work list). Claimed or deferred legs (see {@link claim}) let the list move past legs that have to wait.
   */
  async stale(states: LegState[], before: Date, limit = 100, now: Date = before): Promise<LegRecord[]> {
    return (
      await this.q.query<LegRow>(
        `SELECT * FROM loyalty_legs WHERE state = ANY($1::text[]) AND updated_at < $2 AND check_after <= $4
          ORDER BY updated_at LIMIT $3`,
        [states, before.toISOString(), limit, now.toISOString()],
      )
    ).map(rowToLeg);
  }

  /**
   * Takes a leg of the sweeper's work list for one look: while it is still in `state` and neither claimed nor
   * deferred past `now`, its next look moves to `until` (compare-and-set). Of several instances sweeping at once
   * only one acts on the leg, so the loyalty service's small write budget is not spent twice on it; a settlement
   * resets the mark (see {@link move}), a failed one sets its own retry time. Returns false when another instance
   * took the leg first or it left `state`. `own`: the mark of a claim the caller already holds on the leg (the
   * sweeper's, passed on to the settlement it starts), which it may take again. A leg that waits for its order
   * (out of the work list, nobody working on it) may always be taken: support releasing the holds of an order in
   * manual review, for one.
   */
  async claim(id: string, state: LegState, now: Date, until: Date, own?: Date): Promise<boolean> {
    const rows = await this.q.query<{ id: string }>(
      `UPDATE loyalty_legs SET check_after = $4, waits_for_order = false
        WHERE id = $1 AND state = $2 AND (check_after <= $3 OR waits_for_order OR check_after = $5::timestamptz) RETURNING id`,
      [id, state, now.toISOString(), until.toISOString(), own ? own.toISOString() : null],
    );
    return rows.length === 1;
  }
}
