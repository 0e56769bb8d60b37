import type { Queryable } from '@app/shared';
import { rowToOrder, type OrderRecord, type OrderRow } from '../orders/orders.repo.js';
import type { PhoneHasher } from './phone.js';

/** Orders indexed per look-up call at most (a backlog after an upgrade is worked off over several calls). */
const INDEX_BATCH = 500;
const INDEX_BATCHES_PER_CALL = 4;

/** Where a page of history starts: strictly older than this order (created_at, then id, both descending). */
export interface HistoryPosition {
  createdAt: Date;
  id: string;
}

/**
 * Guest history of one source: orders found by the keyed phone hash (`orders.guest_phone_hash`, migration 009),
 * never by the phone. Orders are hashed here, before each look-up, for the tenant and source asked about, so order
 * creation writes nothing extra and orders from before the switch are found too.
 */
export class GuestHistoryRepo {
  constructor(
    private readonly db: Queryable,
    private readonly hasher: PhoneHasher,
  ) {}

  /** Hashes the phones of this source's orders that have none yet (bounded work per call). */
  async indexPending(tenantId: string, source: string): Promise<void> {
    for (let i = 0; i < INDEX_BATCHES_PER_CALL; i++) {
      const rows = await this.db.query<{ id: string; guest_phone: string }>(
        `SELECT id, guest_phone FROM orders
          WHERE tenant_id = $1 AND source = $2 AND guest_phone IS NOT NULL AND guest_phone_hash IS NULL LIMIT ${INDEX_BATCH}`,
        [tenantId, source],
      );
      if (rows.length === 0) return;
      await this.db.query(
        `UPDATE orders o SET guest_phone_hash = v.h
           FROM (SELECT unnest($1::uuid[]) AS id, unnest($2::text[]) AS h) v
          WHERE o.id = v.id AND o.guest_phone_hash IS NULL`,
        [rows.map((r) => r.id), rows.map((r) => this.hasher.hash(r.guest_phone))],
      );
      if (rows.length < INDEX_BATCH) return;
    }
  }

  /**
   * Up to `limit` orders of the phone at the given points of a source, newest first (created_at, id), strictly
   * after `after` when given. New orders sort before any position already handed out, so paging is stable under inserts.
   */
  async page(q: {
    tenantId: string;
    source: string;
    pointIds: string[];
    phone: string;
    limit: number;
    after: HistoryPosition | null;
  }): Promise<OrderRecord[]> {
    const rows = await this.db.query<OrderRow>(
      `SELECT * FROM orders
        WHERE tenant_id = $1 AND source = $2 AND guest_phone_hash = $3 AND point_id = ANY($4::text[])
          AND ($5::timestamptz IS NULL OR (created_at, id) < ($5::timestamptz, $6::uuid))
        ORDER BY created_at DESC, id DESC
        LIMIT $7`,
      [q.tenantId, q.source, this.hasher.hash(q.phone), q.pointIds, q.after?.createdAt.toISOString() ?? null, q.after?.id ?? null, q.limit],
    );
    return rows.map(rowToOrder);
  }
}
