import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChainError, DEMO_CHAIN_PATH, DEMO_ZONES_PATH, loadChain, loadZones, parseChain, type ChainDescription } from '../src/index.js';

let demo: ChainDescription;
const dir = mkdtempSync(join(tmpdir(), 'pos-chain-'));
beforeAll(async () => {
  demo = await loadChain(DEMO_CHAIN_PATH);
});

/** A deep copy of the demo chain with one thing broken. */
function broken(edit: (c: ChainDescription) => void): unknown {
  const c = structuredClone(demo);
  edit(c);
  return c;
}

const fieldOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ChainError);
    return (err as ChainError).field;
  }
  throw new Error('did not throw');
};

describe('parseChain names the bad field', () => {
  it.each([
    [
      'a non-UUID item id',
      (c: ChainDescription) => {
        c.menu.items[3].id = 'pizza-1';
      },
      '/menu/items/3/id',
    ],
    [
      'a schedule time 24:00',
      (c: ChainDescription) => {
        c.points[0].schedule![2].close = '24:00';
      },
      '/points/0/schedule/2/close',
    ],
    [
      'an unknown field',
      (c: ChainDescription) => {
        Object.assign(c.points[5], { color: 'red' });
      },
      '/points/5/color',
    ],
    [
      'fractional kopecks',
      (c: ChainDescription) => {
        c.menu.items[0].priceMinor = 549.5;
      },
      '/menu/items/0/priceMinor',
    ],
    [
      'an item of no category',
      (c: ChainDescription) => {
        c.menu.items[7].categoryId = c.points[0].route.organizationId;
      },
      '/menu/items/7/categoryId',
    ],
    [
      'a duplicate item id',
      (c: ChainDescription) => {
        c.menu.items[9].id = c.menu.items[1].id;
      },
      '/menu/items/9/id',
    ],
    [
      'a missing street dictionary',
      (c: ChainDescription) => {
        c.points[2].streetsKey = 'moscow-nowhere';
      },
      '/points/2/streetsKey',
    ],
    [
      'a stop-list item not on the menu',
      (c: ChainDescription) => {
        c.stopList.rotation[1] = c.menu.categories[0].id;
      },
      '/stopList/rotation/1',
    ],
    [
      'a mapping to no product',
      (c: ChainDescription) => {
        c.productMappings[4].productId = c.menu.categories[0].id;
      },
      '/productMappings/4/productId',
    ],
    [
      'two points on one terminal group',
      (c: ChainDescription) => {
        c.points[6].route.terminalGroupId = c.points[1].route.terminalGroupId;
      },
      '/points/6/route/terminalGroupId',
    ],
  ])('%s', (_name, edit, field) => {
    expect(fieldOf(() => parseChain(broken(edit)))).toBe(field);
  });
});

describe('file loaders', () => {
  it('loadChain reports a file that is not JSON with its path', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"tenant": ');
    await expect(loadChain(path)).rejects.toThrow(`${path}: / is not JSON`);
  });

  it('loadZones refuses a zone of a point outside the chain', async () => {
    await expect(loadZones(DEMO_ZONES_PATH, ['101'])).rejects.toThrow(/properties\/pointId "102" is not a point of the chain/);
  });

  it('loadZones refuses an open ring', async () => {
    const z = JSON.parse(JSON.stringify(await loadZones(DEMO_ZONES_PATH)));
    z.features[2].geometry.coordinates[0].pop();
    const path = join(dir, 'zones.geojson');
    writeFileSync(path, JSON.stringify(z));
    await expect(loadZones(path)).rejects.toThrow('/features/2/geometry/coordinates/0 is not a closed ring');
  });
});
