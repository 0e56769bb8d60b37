import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseZone, type LatLon } from '../../src/zones/zone-choice.js';
import { ZoneIndex } from '../../src/zones/zone-index.js';
import type { ZoneRecord } from '../../src/zones/zones.repo.js';

// Coordinates on a coarse grid, so that locations often fall on vertices and edges (the boundary counts as inside)
// and zones often overlap; few priorities and points, so ties on priority and on distance are common.
const coord = fc.integer({ min: 0, max: 20 }).map((k) => k / 100);
const vertex = fc.tuple(coord, coord).map(([a, b]): [number, number] => [55.7 + a, 37.5 + b]);
const POINTS = ['1', '2', '3', '4'];

const zoneArb = fc.record({
  pointId: fc.constantFrom(...POINTS),
  polygon: fc.array(vertex, { minLength: 0, maxLength: 8 }), // includes degenerate and self-crossing rings
  priority: fc.integer({ min: 0, max: 3 }),
  active: fc.boolean(),
});

const zonesArb = fc
  .uniqueArray(
    fc.tuple(
      fc.integer({ min: 0, max: 999 }).map((n) => `z${n}`),
      zoneArb,
    ),
    { selector: ([id]) => id, maxLength: 40 },
  )
  .map((list) =>
    list.map(
      ([zoneId, z]): ZoneRecord => ({
        tenantId: 't',
        zoneId,
        name: zoneId,
        minOrderMinor: 0,
        deliveryFeeMinor: 0,
        freeDeliveryFromMinor: null,
        etaMin: null,
        etaMax: null,
        ...z,
      }),
    ),
  );

// Point locations: some points have none (they sort last on distance), some share one (distance ties).
const locationsArb = fc.dictionary(fc.constantFrom(...POINTS), fc.option(fc.tuple(coord, coord).map(([a, b]) => ({ lat: 55.7 + a, lon: 37.5 + b }))));
const allowedArb = fc.subarray(POINTS);

const inDbOrder = (zones: ZoneRecord[]) =>
  [...zones].sort((a, b) => a.priority - b.priority || (a.zoneId < b.zoneId ? -1 : a.zoneId > b.zoneId ? 1 : 0));

describe('ZoneIndex.choose', () => {
  it('picks the same zone as the brute-force chooseZone for random zones, points and keys', () => {
    fc.assert(
      fc.property(
        zonesArb,
        locationsArb,
        allowedArb,
        fc.array(fc.tuple(coord, coord), { minLength: 1, maxLength: 10 }),
        (zones, locs, allowed, ats) => {
          const ordered = inDbOrder(zones);
          const index = new ZoneIndex(ordered);
          const loc = (id: string): LatLon | null => locs[id] ?? null;
          const allow = new Set(allowed);
          // Vertices themselves too: exactly on the boundary.
          const targets: LatLon[] = [
            ...ats.map(([a, b]) => ({ lat: 55.7 + a, lon: 37.5 + b })),
            ...ordered.flatMap((z) => z.polygon.slice(0, 1).map(([lat, lon]) => ({ lat, lon }))),
          ];
          for (const at of targets) {
            const expected = chooseZone(
              ordered.filter((z) => allow.has(z.pointId)),
              at,
              loc,
            );
            const got = index.choose(at, (id) => allow.has(id), loc);
            expect(got?.zoneId ?? null).toBe(expected?.zoneId ?? null);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('leaves out inactive zones and rings of fewer than three vertices', () => {
    const z = (zoneId: string, polygon: [number, number][], active = true): ZoneRecord => ({
      tenantId: 't',
      pointId: '1',
      zoneId,
      name: zoneId,
      polygon,
      minOrderMinor: 0,
      deliveryFeeMinor: 0,
      freeDeliveryFromMinor: null,
      etaMin: null,
      etaMax: null,
      priority: 1,
      active,
    });
    const square: [number, number][] = [
      [55, 37],
      [55, 38],
      [56, 38],
      [56, 37],
    ];
    const index = new ZoneIndex([
      z('off', square, false),
      z('line', [
        [55, 37],
        [56, 38],
      ]),
      z('on', square),
    ]);
    expect(index.size).toBe(1);
    expect(
      index.choose(
        { lat: 55.5, lon: 37.5 },
        () => true,
        () => null,
      )?.zoneId,
    ).toBe('on');
    expect(
      index.choose(
        { lat: 55.5, lon: 37.5 },
        (id) => id !== '1',
        () => null,
      ),
    ).toBeNull();
    expect(
      new ZoneIndex([]).choose(
        { lat: 55.5, lon: 37.5 },
        () => true,
        () => null,
      ),
    ).toBeNull();
  });
});
