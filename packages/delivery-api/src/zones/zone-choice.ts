import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import distance from '@turf/distance';
import { point, polygon } from '@turf/helpers';
import type { ZoneRecord } from './zones.repo.js';

/** Coordinates in degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** Whether the location lies inside the zone polygon (stored as [lat, lon] pairs; GeoJSON wants [lon, lat]). */
export function zoneContains(zone: ZoneRecord, at: LatLon): boolean {
  const ring = zone.polygon.map(([lat, lon]) => [lon, lat]);
  if (ring.length < 3) return false;
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1]) ring.push([...first]);
  if (ring.length < 4) return false;
  return booleanPointInPolygon(point([at.lon, at.lat]), polygon([ring]));
}

/** Great-circle distance in kilometres. */
export function distanceKm(a: LatLon, b: LatLon): number {
  return distance(point([a.lon, a.lat]), point([b.lon, b.lat]), { units: 'kilometers' });
}

/**
 * Picks the zone for a location: among active zones containing it, the lowest `priority` wins; on equal priority
 * the zone whose point is nearest to the location; then the zone id, so the choice is deterministic.
 * Spec: POST /v1/delivery/resolve, point selection.
 */
export function chooseZone(zones: ZoneRecord[], at: LatLon, pointLocation: (pointId: string) => LatLon | null): ZoneRecord | null {
  const hits = zones.filter((z) => z.active && zoneContains(z, at));
  const dist = (z: ZoneRecord): number => {
    const loc = pointLocation(z.pointId);
    return loc ? distanceKm(at, loc) : Number.POSITIVE_INFINITY;
  };
  hits.sort((a, b) => a.priority - b.priority || dist(a) - dist(b) || a.zoneId.localeCompare(b.zoneId));
  return hits[0] ?? null;
}
