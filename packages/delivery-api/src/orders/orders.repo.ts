import type { Queryable } from '@app/shared';
import type { CancelDetail, CancelReason, CancelState, DeliveryStatus, OrderRoute, OrderState, OrderView } from '@app/delivery-contract';
import type { EventsWrite } from './order-events.js';
import type { PosOrderPayload } from '@app/delivery-contract';
import { LegsRepo, orderCreationLegs, rowToLeg, type Attempt, type LegRecord, type LegRow } from '../holds/legs.repo.js';

/** An order row as the services use it. Times UTC. */
export interface OrderRecord {
  id: string;
  tenantId: string;
  source: string;
  externalOrderId: string;
  pointId: string;
  organizationId: string;
  terminalGroupId: string;
  kind: 'checkout' | 'legacy';
  state: OrderState;
  payloadSha256: string;
  request: Record<string, unknown>;
  posPayload: PosOrderPayload;
  route: OrderRoute;
  guestPhone: string | null;
  paymentMethod: string | null;
  bonusSpendMinor: number;
  paidMinor: number;
  claimId: string | null;
  claimExpiresAt: Date | null;
  posOrderId: string | null;
  posDeliveryId: string | null;
  deliveryStatus: DeliveryStatus | null;
  deliveryStatusAt: Date | null;
  cancelState: CancelState;
  cancelReason: CancelReason | null;
  cancelDetail: CancelDetail | null;
  cancelRequestedAt: Date | null;
  /** When the requested cancellation was last handed to the POS (null: never, or withdrawn before it was). */
  cancelDispatchedAt: Date | null;
  /** Who asked for the cancellation: the partner, or the hold sweeper's 30-minute rule (withdrawn on verification). */
  cancelRequestedBy: 'partner' | 'hold_timeout' | null;
  /**
   * Bonus accrual after delivery: `pending` until done (also while the tenant's loyalty is off), `failed` after
   * bounded attempts or a refusal (an operator may queue it again). `skipped` is no longer written (migration 008
   * re-queued the old ones).
   */
  accrualState: 'none' | 'pending' | 'done' | 'failed' | 'skipped';
  accrualAttempts: number;
  accrualError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type Timestamp = Date | string;

/** Buckets of the pending-accrual gauge: time since the accrual became pending or was last tried. */
export type AccrualAge = 'under_15m' | '15m_1h' | '1h_1d' | 'over_1d';

/** An `orders` row (SELECT * / RETURNING *). Integer sums may come back as strings (bigint). */
export interface OrderRow {
  id: string;
  tenant_id: string;
  source: string;
  external_order_id: string;
  point_id: string;
  organization_id: string;
  terminal_group_id: string;
  kind: OrderRecord['kind'];
  state: OrderState;
  payload_sha256: string;
  request: Record<string, unknown>;
  pos_payload: PosOrderPayload;
  route: OrderRoute;
  guest_phone: string | null;
  payment_method: string | null;
  bonus_spend_minor: number | string;
  paid_minor: number | string;
  claim_id: string | null;
  claim_expires_at: Timestamp | null;
  pos_order_id: string | null;
  pos_delivery_id: string | null;
  delivery_status: DeliveryStatus | null;
  delivery_status_at: Timestamp | null;
  cancel_state: CancelState;
  cancel_reason: CancelReason | null;
  cancel_detail: CancelDetail | null;
  cancel_requested_at: Timestamp | null;
  cancel_dispatched_at?: Timestamp | null;
  cancel_requested_by: OrderRecord['cancelRequestedBy'];
  accrual_state: OrderRecord['accrualState'];
  accrual_attempts: number | string | null;
  accrual_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

const d = (v: Timestamp | null | undefined): Date | null => (v == null ? null : new Date(v));

/** An order row as the services use it (sums as numbers, times as UTC Dates). */
export function rowToOrder(r: OrderRow): OrderRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    source: r.source,
    externalOrderId: r.external_order_id,
    pointId: r.point_id,
    organizationId: r.organization_id,
    terminalGroupId: r.terminal_group_id,
    kind: r.kind,
    state: r.state,
    payloadSha256: r.payload_sha256,
    request: r.request,
    posPayload: r.pos_payload,
    route: r.route,
    guestPhone: r.guest_phone ?? null,
    paymentMethod: r.payment_method ?? null,
    bonusSpendMinor: Number(r.bonus_spend_minor),
    paidMinor: Number(r.paid_minor),
    claimId: r.claim_id ?? null,
    claimExpiresAt: d(r.claim_expires_at),
    posOrderId: r.pos_order_id ?? null,
    posDeliveryId: r.pos_delivery_id ?? null,
    deliveryStatus: r.delivery_status ?? null,
    deliveryStatusAt: d(r.delivery_status_at),
    cancelState: r.cancel_state,
    cancelReason: r.cancel_reason ?? null,
    cancelDetail: r.cancel_detail ?? null,
    cancelRequestedAt: d(r.cancel_requested_at),
    cancelDispatchedAt: d(r.cancel_dispatched_at),
    cancelRequestedBy: r.cancel_requested_by ?? null,
    accrualState: r.accrual_state,
    accrualAttempts: Number(r.accrual_attempts ?? 0),
    accrualError: r.accrual_error ?? null,
    createdAt: d(r.created_at)!,
    updatedAt: d(r.updated_at)!,
  };
}

/** Spec: Order view. */
export function toView(o: OrderRecord): OrderView {
  return {
    id: o.id,
    externalOrderId: o.externalOrderId,
    source: o.source,
    state: o.state,
    payloadSha256: o.payloadSha256,
    route: o.route,
    posOrderId: o.posOrderId,
    posDeliveryId: o.posDeliveryId,
    deliveryStatus: o.deliveryStatus,
    deliveryStatusAt: o.deliveryStatusAt?.toISOString() ?? null,
    cancelState: o.cancelState,
    cancelReason: o.cancelReason,
    cancelDetail: o.cancelDetail,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

/** Columns that services may change with {@link OrdersRepo.update}. */
const UPDATABLE: Record<string, string> = {
  state: 'state',
  claimId: 'claim_id',
  claimExpiresAt: 'claim_expires_at',
  posOrderId: 'pos_order_id',
  posDeliveryId: 'pos_delivery_id',
  deliveryStatus: 'delivery_status',
  deliveryStatusAt: 'delivery_status_at',
  cancelState: 'cancel_state',
  cancelReason: 'cancel_reason',
  cancelDetail: 'cancel_detail',
  cancelComment: 'cancel_comment',
  cancelRequestedAt: 'cancel_requested_at',
  cancelDispatchedAt: 'cancel_dispatched_at',
  cancelRequestedBy: 'cancel_requested_by',
  accrualState: 'accrual_state',
  accruedMinor: 'accrued_minor',
  accrualAttempts: 'accrual_attempts',
  accrualNextAt: 'accrual_next_at',
  accrualSince: 'accrual_since',
  accrualError: 'accrual_error',
};

/** Parameters $1–$18 of an order row insert, in the column order of `INSERT INTO orders (id, tenant_id, …, created_at)`. */
function orderRowParams(o: OrderRecord): unknown[] {
  return [
    o.id,
    o.tenantId,
    o.source,
    o.externalOrderId,
    o.pointId,
    o.organizationId,
    o.terminalGroupId,
    o.kind,
    o.state,
    o.payloadSha256,
    JSON.stringify(o.request),
    JSON.stringify(o.posPayload),
    JSON.stringify(o.route),
    o.guestPhone,
    o.paymentMethod,
    o.bonusSpendMinor,
    o.paidMinor,
    o.createdAt.toISOString(),
  ];
}

/** SQL access to orders. */
export class OrdersRepo {
  constructor(private readonly q: Queryable) {}

  /**
   * Creates an order in one statement, so in one round trip and atomically without BEGIN/COMMIT: inserts the row
   * (which is also the idempotency record: unique on tenant, source and externalOrderId, spec POST /v1/orders
   * rule 1), links the legs `legIds` of its attempt (same tenant, source, externalOrderId and body hash as `o`) to
   * it (the legs' SQL is `orderCreationLegs` of holds/legs.repo.ts, the table's owner), and writes its events
   * (`events`, the OrderEvents port's in-statement write), all or
   * nothing. The legs are locked first and must all still be `held` and unlinked (a leg claimed for release
   * meanwhile must not carry this order, docs/loyalty.md): otherwise nothing is written and it returns false.
   * @throws the driver's unique violation (23505) when a concurrent request created the same order; nothing written.
   */
  async create(o: OrderRecord, legIds: string[], events: EventsWrite): Promise<boolean> {
    const rows = await this.q.query<{ ok: boolean }>(
      `WITH ${orderCreationLegs.lockHeld({ tenant: 2, source: 3, externalOrderId: 4, payloadSha256: 10, ids: 19 })}, new_order AS (
         INSERT INTO orders (id, tenant_id, source, external_order_id, point_id, organization_id, terminal_group_id, kind, state,
           payload_sha256, request, pos_payload, route, guest_phone, payment_method, bonus_spend_minor, paid_minor, created_at, updated_at)
         SELECT $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11::jsonb,$12::jsonb,$13::jsonb,$14,$15,$16,$17,$18,$18 FROM legs_ok WHERE legs_ok.ok
         RETURNING id
       ), ${orderCreationLegs.link('new_order')}, ${events.ctes(20, 'new_order')}
       SELECT (SELECT ok FROM legs_ok) AS ok, (SELECT count(*) FROM linked) AS linked, (SELECT count(*) FROM events_written) AS events`,
      [...orderRowParams(o), legIds, events.value],
      // prepared once per connection: a large statement, parsed and planned once (fixed result columns, so a
      // migration adding columns cannot invalidate it)
      { name: 'orders_create' },
    );
    return rows[0].ok;
  }

  /**
   * The order of (tenantId, source, externalOrderId) and the legs of that external order id (ordered by kind), in
   * one statement: what order creation reads first (idempotency, then the attempt's own holds, and the held legs of
   * other bodies of the same external id, which a newer calculation supersedes).
   */
  async byExternalIdWithLegs(a: Attempt): Promise<{ order: OrderRecord | null; legs: LegRecord[]; others: LegRecord[] }> {
    const rows = await this.q.query<{ o: OrderRow | null; legs: LegRow[] }>(
      `SELECT (SELECT to_jsonb(o) FROM orders o WHERE o.tenant_id = $1 AND o.source = $2 AND o.external_order_id = $3) AS o,
              ${orderCreationLegs.ofExternalOrderJson({ tenant: 1, source: 2, externalOrderId: 3 })} AS legs`,
      [a.tenantId, a.source, a.externalOrderId],
      { name: 'orders_lookup_with_all_legs' }, // jsonb results: stable under migrations that add columns
    );
    const r = rows[0];
    const all = r.legs.map((l) => ({ hash: l.payload_sha256 as string, leg: rowToLeg(l) }));
    return {
      order: r.o ? rowToOrder(r.o) : null,
      legs: all.filter((x) => x.hash === a.payloadSha256).map((x) => x.leg),
      others: all.filter((x) => x.hash !== a.payloadSha256).map((x) => x.leg),
    };
  }

  async byExternalId(tenantId: string, source: string, externalOrderId: string): Promise<OrderRecord | null> {
    const rows = await this.q.query<OrderRow>(`SELECT * FROM orders WHERE tenant_id = $1 AND source = $2 AND external_order_id = $3`, [
      tenantId,
      source,
      externalOrderId,
    ]);
    return rows[0] ? rowToOrder(rows[0]) : null;
  }

  /** The order, locked for update when inside a transaction. */
  async byId(id: string, lock = false): Promise<OrderRecord | null> {
    const rows = await this.q.query<OrderRow>(`SELECT * FROM orders WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0] ? rowToOrder(rows[0]) : null;
  }

  /**
   * Claimed orders of a route whose lease ran out, locked (skipping rows another instance holds). POS claim. An order
   * with a pending cancellation is not among them: it stays with the POS that claimed it (docs/loyalty.md "Claim
   * expiry"), which gets the cancellation handed out and may still report under its claim.
   */
  async expiredClaims(organizationId: string, terminalGroupId: string, now: Date): Promise<OrderRecord[]> {
    const rows = await this.q.query<OrderRow>(
      `SELECT * FROM orders WHERE organization_id = $1 AND terminal_group_id = $2 AND state = 'claimed' AND claim_expires_at < $3
          AND cancel_state <> 'requested'
        FOR UPDATE SKIP LOCKED`,
      [organizationId, terminalGroupId, now.toISOString()],
    );
    return rows.map(rowToOrder);
  }

  /** Queued orders of a route without a pending cancellation, oldest first, locked with SKIP LOCKED. POS claim. */
  async claimable(organizationId: string, terminalGroupId: string, limit: number): Promise<OrderRecord[]> {
    const rows = await this.q.query<OrderRow>(
      `SELECT * FROM orders WHERE organization_id = $1 AND terminal_group_id = $2 AND state = 'queued' AND cancel_state <> 'requested'
        ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [organizationId, terminalGroupId, limit],
    );
    return rows.map(rowToOrder);
  }

  /**
   * Marks up to 20 requested cancellations of a route as handed to the POS now and returns them: never handed
   * out, or handed out before `retryBefore` (the lease passed); only in `states`; a sweeper-made request of a
   * verified order never (it is withdrawn). One statement, SKIP LOCKED, so instances never hand one out twice.
   */
  async dispatchCancellations(
    organizationId: string,
    terminalGroupId: string,
    now: Date,
    retryBefore: Date,
    states: string[],
  ): Promise<OrderRecord[]> {
    const rows = await this.q.query<OrderRow>(
      `UPDATE orders SET cancel_dispatched_at = $3 WHERE id IN (
         SELECT id FROM orders WHERE organization_id = $1 AND terminal_group_id = $2 AND cancel_state = 'requested'
           AND state = ANY($5::text[]) AND (cancel_dispatched_at IS NULL OR cancel_dispatched_at < $4)
           AND NOT (state = 'created_verified' AND cancel_requested_by = 'hold_timeout')
         ORDER BY cancel_requested_at LIMIT 20 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [organizationId, terminalGroupId, now.toISOString(), retryBefore.toISOString(), states],
    );
    return rows.map(rowToOrder);
  }

  /**
   * Orders whose bonus accrual is due (pending, back-off elapsed) of tenants with loyalty, the longest-waiting
   * first, so orders that keep failing move behind new ones (sweeper; spec: States, accrual row).
   */
  async dueAccruals(now: Date, limit: number): Promise<OrderRecord[]> {
    const rows = await this.q.query<OrderRow>(
      `SELECT o.* FROM orders o JOIN tenants t ON t.id = o.tenant_id
        WHERE o.accrual_state = 'pending' AND t.loyalty_enabled AND COALESCE(o.accrual_next_at, o.updated_at) <= $1
        ORDER BY COALESCE(o.accrual_next_at, o.updated_at) LIMIT $2`,
      [now.toISOString(), limit],
    );
    return rows.map(rowToOrder);
  }

  /**
   * Pending accruals by how long they have waited since they became pending (delivered, or queued again), in the
   * buckets of the gauge `delivery_loyalty_accruals_pending{age}` (also those the sweeper cannot do now: loyalty
   * off for the tenant, or no loyalty service configured).
   */
  async pendingAccrualsByAge(now: Date): Promise<Record<AccrualAge, number>> {
    const rows = await this.q.query<{ age: AccrualAge; n: number }>(
      `SELECT CASE WHEN w < interval '15 minutes' THEN 'under_15m' WHEN w < interval '1 hour' THEN '15m_1h'
                   WHEN w < interval '1 day' THEN '1h_1d' ELSE 'over_1d' END AS age, count(*)::int AS n
         FROM (SELECT $1::timestamptz - COALESCE(accrual_since, updated_at) AS w FROM orders WHERE accrual_state = 'pending') p GROUP BY 1`,
      [now.toISOString()],
    );
    const out: Record<AccrualAge, number> = { under_15m: 0, '15m_1h': 0, '1h_1d': 0, over_1d: 0 };
    for (const r of rows) out[r.age] = Number(r.n);
    return out;
  }

  /** Accruals in `state` (operator: `order accruals --pending|--failed`), oldest first. */
  async accruals(state: 'pending' | 'failed', limit = 200): Promise<(OrderRecord & { accrualNextAt: Date | null; loyaltyEnabled: boolean })[]> {
    const rows = await this.q.query<OrderRow & { accrual_next_at: Timestamp | null; loyalty_enabled: boolean }>(
      `SELECT o.*, t.loyalty_enabled FROM orders o JOIN tenants t ON t.id = o.tenant_id WHERE o.accrual_state = $1
        ORDER BY o.updated_at LIMIT $2`,
      [state, limit],
    );
    return rows.map((r) => ({ ...rowToOrder(r), accrualNextAt: d(r.accrual_next_at), loyaltyEnabled: r.loyalty_enabled }));
  }

  /** Puts a failed accrual back in the queue with fresh attempts (operator: `order accrual --retry`); null when not failed. */
  async retryAccrual(id: string, now: Date): Promise<OrderRecord | null> {
    const rows = await this.q.query<OrderRow>(
      `UPDATE orders SET accrual_state = 'pending', accrual_attempts = 0, accrual_next_at = NULL, accrual_since = $2, updated_at = $2
        WHERE id = $1 AND accrual_state = 'failed' RETURNING *`,
      [id, now.toISOString()],
    );
    return rows[0] ? rowToOrder(rows[0]) : null;
  }

  /**
   * Sets the given fields and `updated_at`; returns the updated record. A change of `state` or `cancelState` also
   * wakes the order's legs that wait for it to move (LegsRepo.waitForOrder), in the caller's transaction, as its own
   * statement (a fresh snapshot: a wait committed while this transaction waited for the order's lock is seen).
   */
  async update(id: string, fields: Record<string, unknown>, at: Date): Promise<OrderRecord> {
    const keys = Object.keys(fields);
    const sets = keys.map((k, i) => {
      if (!UPDATABLE[k]) throw new Error(`orders: ${k} is not updatable`);
      return `${UPDATABLE[k]} = $${i + 3}`;
    });
    const values = keys.map((k) => {
      const v = fields[k];
      return v instanceof Date ? v.toISOString() : v;
    });
    const rows = await this.q.query<OrderRow>(`UPDATE orders SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1 RETURNING *`, [
      id,
      at.toISOString(),
      ...values,
    ]);
    if ('state' in fields || 'cancelState' in fields) {
      await new LegsRepo(this.q).wakeForOrder(id);
    }
    return rowToOrder(rows[0]);
  }
}
