import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Type, type Static } from 'typebox';
import Value from 'typebox/value';
import { ChainError } from './chain.js';

/** Absolute path of the demo chain's delivery zones (GeoJSON FeatureCollection of Polygons). */
export const DEMO_ZONES_PATH = fileURLToPath(new URL('../chains/demo-zones.geojson', import.meta.url));

const strict = { additionalProperties: false } as const;
const Kopecks = Type.Integer({ minimum: 0 });
const Minutes = Type.Integer({ minimum: 1 });
/** GeoJSON position: `[longitude, latitude]` (note: the spec's API shows `[latitude, longitude]`). */
const Position = Type.Tuple([Type.Number({ minimum: -180, maximum: 180 }), Type.Number({ minimum: -90, maximum: 90 })]);

/** Zone properties. Money in kopecks, ETA in minutes; lower `priority` wins on overlap. Spec: "Delivery zone", resolve. */
export const ZonePropertiesSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    pointId: Type.String({ pattern: '^[0-9]+$' }),
    name: Type.String({ minLength: 1 }),
    priority: Type.Integer(),
    minOrderMinor: Kopecks,
    deliveryFeeMinor: Kopecks,
    freeDeliveryFromMinor: Type.Union([Kopecks, Type.Null()]),
    /** Absent = the server's default ETA (45 min courier). */
    etaMin: Type.Optional(Minutes),
    etaMax: Type.Optional(Minutes),
    active: Type.Boolean(),
  },
  strict,
);

/** GeoJSON FeatureCollection of Polygon zones; only the outer ring is used by the delivery API. */
export const ZonesFileSchema = Type.Object({
  type: Type.Literal('FeatureCollection'),
  features: Type.Array(
    Type.Object({
      type: Type.Literal('Feature'),
      properties: ZonePropertiesSchema,
      geometry: Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Position, { minItems: 4 }), { minItems: 1 }) }),
    }),
    { minItems: 1 },
  ),
});

/** A validated zones file, ready for the delivery API's zone loader (`delivery-operator zones load`). */
export type ZonesFile = Static<typeof ZonesFileSchema>;
export type ZoneProperties = Static<typeof ZonePropertiesSchema>;

/**
 * Reads and validates a zones file. With `pointIds`, every zone must belong to one of those points.
 * @throws ChainError naming the bad field (schema, open ring, duplicate id, etaMax < etaMin, unknown point).
 */
export async function loadZones(path: string, pointIds?: readonly string[]): Promise<ZonesFile> {
  const raw: unknown = JSON.parse(await readFile(path, 'utf8'));
  if (!Value.Check(ZonesFileSchema, raw)) {
    const first = [...Value.Errors(ZonesFileSchema, raw)][0];
    throw new ChainError(first?.instancePath || '/', first?.message ?? 'is invalid', path);
  }
  const seen = new Set<string>();
  raw.features.forEach((f, i) => {
    const at = `/features/${i}`;
    const p = f.properties;
    if (seen.has(p.id)) throw new ChainError(`${at}/properties/id`, `duplicates "${p.id}"`, path);
    seen.add(p.id);
    if (pointIds && !pointIds.includes(p.pointId))
      throw new ChainError(`${at}/properties/pointId`, `"${p.pointId}" is not a point of the chain`, path);
    if ((p.etaMin === undefined) !== (p.etaMax === undefined) || (p.etaMin !== undefined && p.etaMax! < p.etaMin)) {
      throw new ChainError(`${at}/properties/etaMax`, 'needs etaMin and must be >= it', path);
    }
    f.geometry.coordinates.forEach((ring, r) => {
      const [a, b] = [ring[0], ring[ring.length - 1]];
      if (a[0] !== b[0] || a[1] !== b[1]) throw new ChainError(`${at}/geometry/coordinates/${r}`, 'is not a closed ring', path);
    });
  });
  return raw;
}
