import { beforeAll, describe, expect, it } from 'vitest';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { isUuid } from '@app/shared';
import { DEMO_CHAIN_PATH, DEMO_ZONES_PATH, loadChain, loadZones, type ChainDescription, type ZonesFile } from '../src/index.js';

let chain: ChainDescription;
let zones: ZonesFile;
beforeAll(async () => {
  chain = await loadChain(DEMO_CHAIN_PATH);
  zones = await loadZones(
    DEMO_ZONES_PATH,
    chain.points.map((p) => p.pointId),
  );
});

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
const pointOf = (id: string) => chain.points.find((p) => p.pointId === id)!;
const inZone = (z: ZonesFile['features'][number], loc: { lat: number; lon: number }) => booleanPointInPolygon([loc.lon, loc.lat], z.geometry);

describe('demo chain', () => {
  it('has 14 points 101..114, one of which collects orders', () => {
    expect(chain.points.map((p) => p.pointId)).toEqual(Array.from({ length: 14 }, (_, i) => String(101 + i)));
    expect(chain.points.filter((p) => p.collectsOrders).map((p) => p.pointId)).toEqual(['101']);
    expect(chain.points.every((p) => p.phone.startsWith('+7495') && p.timezone === 'Europe/Moscow')).toBe(true);
    // Moscow, Zelenograd included.
    expect(chain.points.every((p) => p.location.lat > 55.5 && p.location.lat < 56.05 && p.location.lon > 37.15 && p.location.lon < 37.9)).toBe(true);
  });

  it('covers the schedule cases: plain, 24 h, crossing midnight, none', () => {
    const windows = chain.points.flatMap((p) => p.schedule ?? []);
    expect(windows.some((w) => w.open === '00:00' && w.close === '00:00')).toBe(true);
    expect(windows.some((w) => minutes(w.close) < minutes(w.open) && w.close !== '00:00')).toBe(true);
    expect(windows.some((w) => w.open === '10:00' && w.close === '23:00')).toBe(true);
    expect(chain.points.filter((p) => p.schedule === null)).toHaveLength(1);
    for (const p of chain.points) if (p.schedule) expect(new Set(p.schedule.map((w) => w.weekday))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
  });

  it('has pickup-only points, one disabled route, one point without a street dictionary', () => {
    expect(chain.points.filter((p) => !p.deliveryTypes.includes('courier')).length).toBeGreaterThanOrEqual(1);
    expect(chain.points.filter((p) => !p.route.active).map((p) => p.pointId)).toEqual(['113']);
    expect(chain.points.filter((p) => p.streetsKey === null).map((p) => p.pointId)).toEqual(['114']);
    const routeIds = chain.points.flatMap((p) => Object.values(p.route).filter((v) => typeof v === 'string' && v !== 'website'));
    expect(routeIds.every(isUuid)).toBe(true);
  });

  it('has a menu of at least 60 items with UUIDs, nested categories, hidden and gift items', () => {
    const { categories, items } = chain.menu;
    expect(categories.length).toBeGreaterThanOrEqual(6);
    expect(categories.some((c) => c.parentId !== null)).toBe(true);
    expect(items.length).toBeGreaterThanOrEqual(60);
    expect([...categories, ...items].every((x) => isUuid(x.id))).toBe(true);
    expect(items.filter((i) => i.hidden).map((i) => i.name)).toEqual(['Пакет', 'Соус соевый дополнительный', 'Доставка']);
    // the delivery-fee service line of zone pricing (rule 9) is a hidden POS product named by the tenant
    expect(items.find((i) => i.id === chain.tenant.deliveryFeeProductId)?.name).toBe('Доставка');
    const gifts = items.filter((i) => i.gift);
    expect(gifts.length).toBeGreaterThanOrEqual(1);
    expect(gifts.every((g) => g.priceMinor === 0)).toBe(true);
    expect(items.filter((i) => !i.gift).every((i) => Number.isInteger(i.priceMinor) && i.priceMinor > 0)).toBe(true);
  });

  it('has nutrition on most items, consistent with the weight (portion = per 100 g × weight / 100)', () => {
    const withN = chain.menu.items.filter((i) => i.nutrition);
    expect(withN.length).toBeGreaterThan(chain.menu.items.length * 0.8);
    expect(withN.length).toBeLessThan(chain.menu.items.length);
    for (const i of withN) {
      const n = i.nutrition!;
      for (const k of ['kcal', 'protein', 'fat', 'carbs'] as const) {
        // Portions are rounded to 0.1.
        expect(Math.abs(n[`${k}Portion`] - (n[`${k}Per100g`] * i.weightGrams) / 100), `${i.name} ${k}`).toBeLessThanOrEqual(0.05 + 1e-9);
      }
    }
  });

  it('has a stop-list of 3-5 menu items at balance 0 and a rotation pool', () => {
    expect(chain.stopList.initial.length).toBeGreaterThanOrEqual(3);
    expect(chain.stopList.initial.length).toBeLessThanOrEqual(5);
    expect(chain.stopList.initial.every((e) => e.balance === 0)).toBe(true);
    expect(chain.stopList.rotation.length).toBeGreaterThan(0);
  });

  it('has street dictionaries of 20-40 streets with an ambiguous name, and ~20 legacy mappings', () => {
    const dicts = Object.values(chain.streetDictionaries);
    expect(dicts.every((d) => d.length >= 20 && d.length <= 40)).toBe(true);
    const ambiguous = dicts.flatMap((d) => d.filter((s, i) => d.some((o, j) => j !== i && o.name === s.name && o.city !== s.city)));
    expect(ambiguous).toContainEqual({ name: 'Центральная улица', city: 'Зеленоград' });
    expect(ambiguous).toContainEqual({ name: 'Центральная улица', city: 'Москва' });
    expect(chain.productMappings.length).toBeGreaterThanOrEqual(18);
    expect(chain.productMappings.every((m) => /^site-\d+$/.test(m.externalProductId) && m.kind === 'dish')).toBe(true);
  });
});

describe('demo zones', () => {
  it('gives every courier point an active zone, each zone containing its point and staying within ~10 km of it', () => {
    for (const p of chain.points.filter((x) => x.deliveryTypes.includes('courier'))) {
      expect(
        zones.features.some((z) => z.properties.pointId === p.pointId && z.properties.active),
        p.pointId,
      ).toBe(true);
    }
    for (const z of zones.features) {
      const p = pointOf(z.properties.pointId);
      expect(inZone(z, p.location), z.properties.id).toBe(true);
      for (const [lon, lat] of z.geometry.coordinates[0]) {
        expect(Math.abs(lat - p.location.lat)).toBeLessThan(0.09);
        expect(Math.abs(lon - p.location.lon)).toBeLessThan(0.16);
      }
    }
  });

  it('has overlaps with different priorities and with equal priorities of different points', () => {
    const active = zones.features.filter((z) => z.properties.active);
    const at = (loc: { lat: number; lon: number }) => active.filter((z) => inZone(z, loc)).map((z) => z.properties);
    // At the Tverskaya point the express zone (priority 5) overlaps the wider one (10).
    expect(new Set(at(pointOf('101').location).map((z) => z.priority)).size).toBeGreaterThan(1);
    // Halfway between Tverskaya and Pokrovka two points' zones of equal priority overlap: the nearest point decides.
    const [a, b] = [pointOf('101').location, pointOf('103').location];
    const mid = at({ lat: (a.lat + b.lat) / 2, lon: (a.lon + b.lon) / 2 }).filter((z) => z.priority === 10);
    expect(mid.map((z) => z.pointId)).toEqual(expect.arrayContaining(['101', '103']));
  });

  it('has one inactive zone and one without an ETA', () => {
    expect(zones.features.filter((z) => !z.properties.active)).toHaveLength(1);
    expect(zones.features.filter((z) => z.properties.etaMin === undefined).length).toBeGreaterThanOrEqual(1);
  });
});
