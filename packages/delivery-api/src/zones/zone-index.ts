import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { polygon } from '@turf/helpers';
import Flatbush from 'flatbush';
import { closedRing, zoneOrder, type LatLon } from './zone-choice.js';
import type { ZoneRecord } from './zones.repo.js';

interface PreparedZone {
  zone: ZoneRecord;
  /** The closed `[lon, lat]` ring as a GeoJSON feature carrying its bbox (turf checks the bbox first). */
  shape: ReturnType<typeof polygon>;
}

/**
 * The active zones of a tenant prepared once for many choices: each polygon closed and wrapped once, and a
 * Flatbush R-tree over their bounding boxes (x = longitude, y = latitude). A choice tests exactly (turf point in
 * polygon, boundary inside) only the zones whose box holds the location, so it costs O(log n + candidates) instead
 * of rebuilding and testing every polygon. Picks the same zone as `chooseZone` (property test
 * zone-index.property.test.ts). Immutable: build a new one when the zones change (zone-index-cache.ts).
 */
export class ZoneIndex {
  private readonly prepared: PreparedZone[] = [];
  private readonly tree: Flatbush | null;

  /** @param zones zones of one tenant; inactive ones and polygons of fewer than 3 distinct vertices are left out. */
  constructor(zones: readonly ZoneRecord[]) {
    for (const zone of zones) {
      if (!zone.active) continue;
      const ring = closedRing(zone);
      if (!ring) continue;
      const shape = polygon([ring]);
      shape.bbox = boundsOf(ring);
      this.prepared.push({ zone, shape });
    }
    if (this.prepared.length === 0) {
      this.tree = null;
      return;
    }
    this.tree = new Flatbush(this.prepared.length);
    for (const { shape } of this.prepared) {
      const [minX, minY, maxX, maxY] = shape.bbox as [number, number, number, number];
      this.tree.add(minX, minY, maxX, maxY);
    }
    this.tree.finish();
  }

  /** Number of zones in the index (active, with a usable polygon). */
  get size(): number {
    return this.prepared.length;
  }

  /**
   * The zone for a location among the indexed zones whose point passes `allowPoint` (the key's routed points):
   * the first containing zone in `zoneOrder` (priority, nearest point, zone id), or null outside all of them.
   * Spec: POST /v1/delivery/resolve, point selection.
   */
  choose(at: LatLon, allowPoint: (pointId: string) => boolean, pointLocation: (pointId: string) => LatLon | null): ZoneRecord | null {
    if (!this.tree) return null;
    const pt = [at.lon, at.lat];
    // Candidates in build order (priority, zone id), as the brute-force choice sees them.
    const candidates = this.tree.search(at.lon, at.lat, at.lon, at.lat).sort((a, b) => a - b);
    let best: ZoneRecord | null = null;
    const order = zoneOrder(at, pointLocation);
    for (const i of candidates) {
      const { zone, shape } = this.prepared[i];
      // Cheap checks first: a zone that cannot beat the best so far on priority skips the exact test.
      if (best && zone.priority > best.priority) continue;
      if (!allowPoint(zone.pointId) || !booleanPointInPolygon(pt, shape)) continue;
      // Strictly better only: on a tie the earlier zone stays, as a stable sort would keep it.
      if (!best || order(zone, best) < 0) best = zone;
    }
    return best;
  }
}

function boundsOf(ring: [number, number][]): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of ring) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}
