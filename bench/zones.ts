/**
 * Zone choice benchmark: time per choice of the brute-force `chooseZone` (every polygon rebuilt and
 * tested) against the prepared `ZoneIndex` (Flatbush over bounding boxes, exact test of the candidates only), for
 * 100, 1,000 and 10,000 zones of 24 vertices over a Moscow-sized area. Pure CPU, no database and no HTTP: the
 * per-resolve cost of the revision read is in the read benchmark. Both choices are checked to agree on every sample.
 * Run: npm run bench -- zones [--sizes 100,1000,10000] [--old 300] [--new 20000] [--seed 13]
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseArgs } from 'node:util';
import { chooseZone, type LatLon } from '../packages/delivery-api/src/zones/zone-choice.js';
import { ZoneIndex } from '../packages/delivery-api/src/zones/zone-index.js';
import type { ZoneRecord } from '../packages/delivery-api/src/zones/zones.repo.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000,10000' },
    old: { type: 'string', default: '300' },
    new: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '13' },
  },
});

/** mulberry32: a small seeded PRNG, so every run measures the same zones and locations. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The area: about 60 × 60 km around Moscow; zones are irregular 24-vertex stars of 0.5–3 km radius, so they
// overlap as real delivery zones do (several per location in the dense parts), one point per 10 zones.
const AREA = { lat: 55.5, lon: 37.3, dLat: 0.55, dLon: 0.9 };

function makeZones(n: number, rnd: () => number): { zones: ZoneRecord[]; points: Map<string, LatLon> } {
  const points = new Map<string, LatLon>();
  const zones: ZoneRecord[] = [];
  for (let i = 0; i < n; i++) {
    const pointId = String(100 + Math.floor(i / 10));
    const c = { lat: AREA.lat + rnd() * AREA.dLat, lon: AREA.lon + rnd() * AREA.dLon };
    if (!points.has(pointId)) points.set(pointId, c);
    const r = 0.005 + rnd() * 0.022;
    const polygon: [number, number][] = [];
    for (let k = 0; k < 24; k++) {
      const angle = (2 * Math.PI * k) / 24;
      const rr = r * (0.6 + 0.4 * rnd());
      polygon.push([c.lat + rr * Math.sin(angle), c.lon + (rr * Math.cos(angle)) / 0.56]);
    }
    zones.push({
      tenantId: 't',
      pointId,
      zoneId: `z${String(i).padStart(5, '0')}`,
      name: `Zone ${i}`,
      polygon,
      minOrderMinor: 0,
      deliveryFeeMinor: 0,
      freeDeliveryFromMinor: null,
      etaMin: null,
      etaMax: null,
      priority: Math.floor(rnd() * 5),
      active: rnd() > 0.05,
    });
  }
  zones.sort((a, b) => a.priority - b.priority || a.zoneId.localeCompare(b.zoneId)); // the repository's order
  return { zones, points };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function time(
  count: number,
  at: (i: number) => LatLon,
  choose: (at: LatLon) => ZoneRecord | null,
): { p50: number; p99: number; picks: (string | null)[] } {
  const samples: number[] = [];
  const picks: (string | null)[] = [];
  for (let i = 0; i < count; i++) {
    const loc = at(i);
    const t0 = performance.now();
    const z = choose(loc);
    samples.push(performance.now() - t0);
    picks.push(z?.zoneId ?? null);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), picks };
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (() => void) | undefined;

const fmt = (ms: number) => (ms >= 1 ? ms.toFixed(2) : ms.toFixed(4));
const rows: string[] = [];
for (const n of args.sizes.split(',').map(Number)) {
  const rnd = prng(Number(args.seed) + n);
  const { zones, points } = makeZones(n, rnd);
  const allowed = new Set(points.keys());
  const loc = (id: string) => points.get(id) ?? null;
  const locations = Array.from({ length: Math.max(Number(args.old), Number(args.new)) }, () => ({
    lat: AREA.lat + rnd() * AREA.dLat,
    lon: AREA.lon + rnd() * AREA.dLon,
  }));
  const t0 = performance.now();
  const index = new ZoneIndex(zones);
  const buildMs = performance.now() - t0;
  const oldCount = Number(args.old);
  // Indexed first and a collection between: the brute force leaves much garbage whose collection would otherwise
  // land in the indexed samples.
  gc?.();
  const fresh = time(
    Number(args.new),
    (i) => locations[i],
    (at) => index.choose(at, (id) => allowed.has(id), loc),
  );
  const old = time(
    oldCount,
    (i) => locations[i],
    (at) => chooseZone(zones, at, loc),
  );
  gc?.();
  const mismatches = old.picks.filter((p, i) => p !== fresh.picks[i]).length;
  if (mismatches) throw new Error(`${mismatches} of ${oldCount} choices differ at ${n} zones`);
  const inside = fresh.picks.filter((p) => p !== null).length / fresh.picks.length;
  rows.push(
    `| ${n.toLocaleString('en')} | ${fmt(old.p50)} | ${fmt(old.p99)} | ${fmt(fresh.p50)} | ${fmt(fresh.p99)} | ${Math.round(old.p50 / fresh.p50)}× | ${Math.round(old.p99 / fresh.p99)}× | ${buildMs.toFixed(1)} | ${Math.round(inside * 100)} % |`,
  );
}
console.log(
  '| zones | old p50 ms | old p99 ms | indexed p50 ms | indexed p99 ms | ratio p50 | ratio p99 | index build ms | locations inside a zone |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`(${args.old} old and ${args.new} indexed choices per size; same picks checked on the first ${args.old}; seed ${args.seed})`);
