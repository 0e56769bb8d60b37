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

/** A `delivery_zones` row (migrations 001, 005); numbers may arrive as strings from the driver. */
export interface ZoneRow {
  tenant_id: string;
  point_id: string;
  zone_id: string;
  name: string;
  /** jsonb: `[latitude, longitude]` vertices, parsed by the driver. */
  polygon: [number, number][];
  min_order_minor: number | string;
  delivery_fee_minor: number | string;
  free_delivery_from_minor: number | string | null;
  eta_min: number | string | null;
  eta_max: number | string | null;
  priority: number | string;
  active: boolean;
}

/** A zone row as the zone index uses it (amounts in kopecks and ETAs in minutes as numbers). */
export function rowToZone(r: ZoneRow): ZoneRecord {
  return {
    tenantId: r.tenant_id,
    pointId: r.point_id,
    zoneId: r.zone_id,
    name: r.name,
    polygon: r.polygon,
    minOrderMinor: Number(r.min_order_minor),
    deliveryFeeMinor: Number(r.delivery_fee_minor),
    freeDeliveryFromMinor: r.free_delivery_from_minor == null ? null : Number(r.free_delivery_from_minor),
    etaMin: r.eta_min == null ? null : Number(r.eta_min),
    etaMax: r.eta_max == null ? null : Number(r.eta_max),
    priority: Number(r.priority),
    active: r.active,
  };
}

/** SQL access to delivery zones. */
export class ZonesRepo {
  constructor(private readonly db: Queryable) {}

  /** All zones of a tenant (active or not), in `priority, zone_id` order: the input of the zone index. */
  async listForTenant(tenantId: string): Promise<ZoneRecord[]> {
    const rows = await this.db.query<ZoneRow>(`SELECT * FROM delivery_zones WHERE tenant_id = $1 ORDER BY priority, zone_id`, [tenantId]);
    return rows.map(rowToZone);
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
    const rows = await this.db.query<ZoneRow>(
      `SELECT * FROM delivery_zones WHERE tenant_id = $1 AND point_id = ANY($2::text[]) ORDER BY priority, zone_id`,
      [tenantId, pointIds],
    );
    return rows.map(rowToZone);
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
