import type { Queryable } from '@app/shared';
import type { HoldKind } from '../loyalty/loyalty.port.js';

/** Leg states. Spec: Loyalty hold legs (`cancelled`/released is `released` here). */
export type LegState = 'holding' | 'held' | 'confirmed' | 'released' | 'failed';

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
  externalOrderId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The attempt a leg belongs to: the order's idempotency key plus the body's hash. */
export interface Attempt {
  tenantId: string;
  source: string;
  externalOrderId: string;
  payloadSha256: string;
}

type Row = Record<string, unknown>;
const toLeg = (r: Row): LegRecord => ({
  id: r.id as string, kind: r.kind as HoldKind, state: r.state as LegState, amountMinor: Number(r.amount_minor),
  holdId: (r.hold_id as string) ?? null, holdKey: (r.hold_key as string) ?? null, orderId: (r.order_id as string) ?? null,
  organizationId: r.organization_id as string, phone: (r.phone as string) ?? null, coupon: (r.coupon as string) ?? null,
  certificateSerialEnc: (r.certificate_serial_enc as string) ?? null, externalOrderId: r.external_order_id as string,
  createdAt: new Date(r.created_at as string), updatedAt: new Date(r.updated_at as string),
});

/** SQL access to loyalty legs. Each method is one statement, so it is its own recovery point. */
export class LegsRepo {
  constructor(private readonly q: Queryable) {}

  /**
   * Records a leg as `holding` unless the attempt already has a leg of this kind. Returns the leg and whether
   * this call created it (the unique constraint decides, never a check-then-insert).
   */
  async insertHolding(a: Attempt, leg: Omit<LegRecord, 'state' | 'holdId' | 'orderId' | 'externalOrderId' | 'createdAt' | 'updatedAt'>, now: Date): Promise<{ leg: LegRecord; created: boolean }> {
    const rows = await this.q.query<Row>(
      `INSERT INTO loyalty_legs (id, tenant_id, source, external_order_id, payload_sha256, kind, organization_id, phone, coupon,
         certificate_serial_enc, amount_minor, state, hold_key, created_at, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,'holding',$12,$13,$13)
       ON CONFLICT ON CONSTRAINT loyalty_legs_attempt DO NOTHING RETURNING *`,
      [leg.id, a.tenantId, a.source, a.externalOrderId, a.payloadSha256, leg.kind, leg.organizationId, leg.phone, leg.coupon,
        leg.certificateSerialEnc, leg.amountMinor, leg.holdKey, now.toISOString()],
    );
    if (rows[0]) return { leg: toLeg(rows[0]), created: true };
    const existing = await this.q.query<Row>(
      `SELECT * FROM loyalty_legs WHERE tenant_id = $1 AND source = $2 AND external_order_id = $3 AND payload_sha256 = $4 AND kind = $5`,
      [a.tenantId, a.source, a.externalOrderId, a.payloadSha256, leg.kind],
    );
    return { leg: toLeg(existing[0]), created: false };
  }

  /** Moves a leg from one of `from` to `to` (compare-and-set); returns null when the leg was not in `from`. */
  async move(id: string, from: LegState[], to: LegState, now: Date, set: { holdId?: string; holdKey?: string; amountMinor?: number; error?: string | null } = {}): Promise<LegRecord | null> {
    const rows = await this.q.query<Row>(
      `UPDATE loyalty_legs SET state = $3, updated_at = $4,
         hold_id = COALESCE($5, hold_id), hold_key = COALESCE($6, hold_key), amount_minor = COALESCE($7, amount_minor), last_error = $8
       WHERE id = $1 AND state = ANY($2::text[]) RETURNING *`,
      [id, from, to, now.toISOString(), set.holdId ?? null, set.holdKey ?? null, set.amountMinor ?? null, set.error ?? null],
    );
    return rows[0] ? toLeg(rows[0]) : null;
  }

  async linkToOrder(a: Attempt, orderId: string): Promise<void> {
    await this.q.query(
      `UPDATE loyalty_legs SET order_id = $5 WHERE tenant_id = $1 AND source = $2 AND external_order_id = $3 AND payload_sha256 = $4`,
      [a.tenantId, a.source, a.externalOrderId, a.payloadSha256, orderId],
    );
  }

  async forOrder(orderId: string): Promise<LegRecord[]> {
    return (await this.q.query<Row>(`SELECT * FROM loyalty_legs WHERE order_id = $1 ORDER BY kind`, [orderId])).map(toLeg);
  }

  /**
   * Legs in `states` last changed before `before` and not deferred past `now`, oldest first (the sweeper's
   * work list). Deferred legs (see {@link defer}) let the list move past legs that have to wait.
   */
  async stale(states: LegState[], before: Date, limit = 100, now: Date = before): Promise<LegRecord[]> {
    return (
      await this.q.query<Row>(
        `SELECT * FROM loyalty_legs WHERE state = ANY($1::text[]) AND updated_at < $2 AND check_after <= $4
          ORDER BY updated_at LIMIT $3`,
        [states, before.toISOString(), limit, now.toISOString()],
      )
    ).map(toLeg);
  }

  /** The sweeper looked at the leg and nothing could be done yet: look again after `until`. */
  async defer(id: string, until: Date): Promise<void> {
    await this.q.query(`UPDATE loyalty_legs SET check_after = $2 WHERE id = $1`, [id, until.toISOString()]);
  }
}
