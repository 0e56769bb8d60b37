import type { ZoneRecord } from '../zones/zones.repo.js';

class GeoJsonError extends Error {}

function num(v: unknown, what: string, dflt?: number | null): number | null {
  if (v === undefined || v === null) {
    if (dflt !== undefined) return dflt;
    throw new GeoJsonError(`${what} is required`);
  }
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new GeoJsonError(`${what} must be a non-negative integer`);
  return v;
}

/**
 * Converts a GeoJSON FeatureCollection of Polygon features into zones. GeoJSON positions are
 * `[longitude, latitude]`; zones store the spec's `[latitude, longitude]`. Only the outer ring is used.
 * Feature properties: id, pointId, name, priority, minOrderMinor, deliveryFeeMinor, freeDeliveryFromMinor (kopecks),
 * etaMin, etaMax (minutes, optional), active (default true).
 * @throws Error naming the feature and the property that is wrong.
 */
export function parseZonesGeoJson(tenantId: string, geojson: unknown): ZoneRecord[] {
  const fc = geojson as { type?: string; features?: unknown[] };
  if (fc?.type !== 'FeatureCollection' || !Array.isArray(fc.features)) throw new Error('zones file must be a GeoJSON FeatureCollection');
  return fc.features.map((f, i) => {
    const feat = f as { geometry?: { type?: string; coordinates?: unknown }; properties?: Record<string, unknown> };
    const p = feat.properties ?? {};
    const label = `feature ${i} (${String(p.id ?? 'no id')})`;
    try {
      if (feat.geometry?.type !== 'Polygon') throw new GeoJsonError('geometry must be a Polygon');
      const ring = (feat.geometry.coordinates as unknown[][])?.[0] as unknown[];
      if (!Array.isArray(ring) || ring.length < 4) throw new GeoJsonError('polygon needs a closed ring of at least 4 positions');
      const polygon = ring.map((pos) => {
        const [lon, lat] = pos as number[];
        if (typeof lat !== 'number' || typeof lon !== 'number' || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
          throw new GeoJsonError('positions must be [longitude, latitude] numbers');
        }
        return [lat, lon] as [number, number];
      });
      if (typeof p.id !== 'string' || !p.id) throw new GeoJsonError('property id (string) is required');
      if (typeof p.pointId !== 'string' || !p.pointId) throw new GeoJsonError('property pointId (string) is required');
      const etaMin = num(p.etaMin, 'etaMin', null);
      const etaMax = num(p.etaMax, 'etaMax', etaMin);
      if (etaMin !== null && etaMax !== null && etaMax < etaMin) throw new GeoJsonError('etaMax must be >= etaMin');
      return {
        tenantId,
        pointId: p.pointId,
        zoneId: p.id,
        name: typeof p.name === 'string' ? p.name : p.id,
        polygon,
        minOrderMinor: num(p.minOrderMinor, 'minOrderMinor', 0)!,
        deliveryFeeMinor: num(p.deliveryFeeMinor, 'deliveryFeeMinor', 0)!,
        freeDeliveryFromMinor: num(p.freeDeliveryFromMinor, 'freeDeliveryFromMinor', null),
        etaMin,
        etaMax,
        priority: typeof p.priority === 'number' && Number.isInteger(p.priority) ? p.priority : 100,
        active: p.active === undefined ? true : p.active === true,
      };
    } catch (err) {
      throw new Error(`${label}: ${(err as Error).message}`);
    }
  });
}
