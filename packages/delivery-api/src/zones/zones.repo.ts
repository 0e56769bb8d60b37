import type { Queryable } from '@app/shared';

/** A stored delivery zone; money in kopecks; polygon vertices `[latitude, longitude]`. Spec: Delivery zone. */
export interface ZoneRecord {
  tenantId: string;
  pointId: string;
  zoneId: string;
  name: string;
  polygon: [number, number][];
  minOrderMinor: number;
  deliveryFeeMinor: number;
  freeDeliveryFromMinor: number | null;
  etaMin: number | null;
  etaMax: number | null;
  priority: number;
  active: boolean;
}

type Row = Record<string, unknown>;
const toZone = (r: Row): ZoneRecord => ({
  tenantId: r.tenant_id as string,
  pointId: r.point_id as string,
  zoneId: r.zone_id as string,
  name: r.name as string,
  polygon: r.polygon as [number, number][],
  minOrderMinor: Number(r.min_order_minor),
  deliveryFeeMinor: Number(r.delivery_fee_minor),
  freeDeliveryFromMinor: r.free_delivery_from_minor == null ? null : Number(r.free_delivery_from_minor),
  etaMin: r.eta_min == null ? null : Number(r.eta_min),
  etaMax: r.eta_max == null ? null : Number(r.eta_max),
  priority: Number(r.priority),
  active: r.active as boolean,
});

/** SQL access to delivery zones. */
export class ZonesRepo {
  constructor(private readonly db: Queryable) {}

  /** All zones of a tenant (active or not), in `priority, zone_id` order: the input of the zone index. */
  async listForTenant(tenantId: string): Promise<ZoneRecord[]> {
    const rows = await this.db.query<Row>(`SELECT * FROM delivery_zones WHERE tenant_id = $1 ORDER BY priority, zone_id`, [tenantId]);
    return rows.map(toZone);
  }

  /**
   * The zone revision: a counter that every write to `delivery_zones` bumps (trigger of migration 005), as a
   * string. Equal revisions mean no zone of any tenant changed in between.
   */
  async revision(): Promise<string> {
    const rows = await this.db.query<{ revision: string | number }>(`SELECT revision FROM zone_revision`);
    return String(rows[0]?.revision ?? '0');
  }

  async listForPoints(tenantId: string, pointIds: string[]): Promise<ZoneRecord[]> {
    const rows = await this.db.query<Row>(
      `SELECT * FROM delivery_zones WHERE tenant_id = $1 AND point_id = ANY($2::text[]) ORDER BY priority, zone_id`,
      [tenantId, pointIds],
    );
    return rows.map(toZone);
  }

  /** Replaces all zones of the given points with `zones` in one transaction step (operator import). */
  async replaceForPoints(q: Queryable, tenantId: string, pointIds: string[], zones: ZoneRecord[]): Promise<void> {
    await q.query(`DELETE FROM delivery_zones WHERE tenant_id = $1 AND point_id = ANY($2::text[])`, [tenantId, pointIds]);
    for (const z of zones) {
      await q.query(
        `INSERT INTO delivery_zones (tenant_id, point_id, zone_id, name, polygon, min_order_minor, delivery_fee_minor,
           free_delivery_from_minor, eta_min, eta_max, priority, active)
         VALUES ($1,$2,$3,$4,$5::jsonb,$6,$7,$8,$9,$10,$11,$12)`,
        [
          tenantId,
          z.pointId,
          z.zoneId,
          z.name,
          JSON.stringify(z.polygon),
          z.minOrderMinor,
          z.deliveryFeeMinor,
          z.freeDeliveryFromMinor,
          z.etaMin,
          z.etaMax,
          z.priority,
          z.active,
        ],
      );
    }
  }
}
