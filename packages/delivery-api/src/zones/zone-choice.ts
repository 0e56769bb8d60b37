import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import distance from '@turf/distance';
import { point, polygon } from '@turf/helpers';
import type { ZoneRecord } from './zones.repo.js';

/** Coordinates in degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

/**
 * The zone polygon as a closed GeoJSON ring (`[lon, lat]` pairs; stored vertices are `[lat, lon]`), or null when it
 * has too few vertices to enclose anything (such a zone contains no location).
 */
export function closedRing(zone: ZoneRecord): [number, number][] | null {
  const ring = zone.polygon.map(([lat, lon]): [number, number] => [lon, lat]);
  if (ring.length < 3) return null;
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1]) ring.push([first[0], first[1]]);
  return ring.length < 4 ? null : ring;
}

/** Whether the location lies inside the zone polygon (the boundary counts as inside). */
export function zoneContains(zone: ZoneRecord, at: LatLon): boolean {
  const ring = closedRing(zone);
  return ring !== null && booleanPointInPolygon(point([at.lon, at.lat]), polygon([ring]));
}

/** Great-circle distance in kilometres. */
export function distanceKm(a: LatLon, b: LatLon): number {
  return distance(point([a.lon, a.lat]), point([b.lon, b.lat]), { units: 'kilometers' });
}

/**
 * Orders zones that contain a location, best first: lowest `priority`; on equal priority the zone whose point is
 * nearest to the location (a point without coordinates is farthest); then the zone id. Spec: POST
 * /v1/delivery/resolve, point selection.
 */
export function zoneOrder(at: LatLon, pointLocation: (pointId: string) => LatLon | null): (a: ZoneRecord, b: ZoneRecord) => number {
  const known = new Map<string, number>(); // distance per point, computed once per choice
  const dist = (z: ZoneRecord): number => {
    let d = known.get(z.pointId);
    if (d === undefined) {
      const loc = pointLocation(z.pointId);
      d = loc ? distanceKm(at, loc) : Number.POSITIVE_INFINITY;
      known.set(z.pointId, d);
    }
    return d;
  };
  return (a, b) => a.priority - b.priority || dist(a) - dist(b) || a.zoneId.localeCompare(b.zoneId);
}

/**
 * Picks the zone for a location by testing every zone: among active zones containing it, the first in `zoneOrder`.
 * The reference for the indexed choice (zone-index.ts), which must pick the same zone. Spec: POST
 * /v1/delivery/resolve, point selection.
 */
export function chooseZone(zones: ZoneRecord[], at: LatLon, pointLocation: (pointId: string) => LatLon | null): ZoneRecord | null {
  const hits = zones.filter((z) => z.active && zoneContains(z, at));
  hits.sort(zoneOrder(at, pointLocation));
  return hits[0] ?? null;
}
