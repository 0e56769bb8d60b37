import { join } from 'node:path';
import { importCycles, importSpecifiers, relativeImports, topFolders, unitOf, upwardImports } from '@app/shared/testing';
import { describe, expect, it } from 'vitest';

/**
 * The layers of docs/architecture.md "The delivery API's layers", as a check on the imports of src/: a folder
 * imports only from folders of a lower (or its own) rank, no import cycle (of files, or of folders of one rank);
 * nothing in src/ imports a fake, a recorder or a crash hook.
 */
const SRC = join(import.meta.dirname, '..', '..', 'src');
const RANK: Record<string, number> = {
  'index.ts': -1,
  '.': 0,
  operator: 0,
  console: 1,
  pos: 1,
  webhooks: 1,
  'catalog-events': 1,
  orders: 2,
  guests: 2,
  checkout: 3,
  zones: 4,
  catalog: 5,
  status: 5,
  points: 6,
  holds: 7,
  'rate-limit': 7,
  loyalty: 8,
  tenants: 8,
  auth: 8,
  redis: 8,
  retention: 8,
  health: 8,
  http: 8,
  features: 9,
  common: 9,
};
/** Root files every layer may use (the one error table). */
const SHARED_ROOT_FILES = new Set(['errors.ts']);

describe('delivery API layers', () => {
  it('every folder of src/ has a rank', () => {
    expect(topFolders(SRC).filter((f) => RANK[f] === undefined)).toEqual([]);
  });

  it('no import points from a lower layer to a higher one', () => {
    expect(upwardImports(relativeImports(SRC), RANK, SHARED_ROOT_FILES)).toEqual([]);
  });

  it('no import cycle between files, nor between folders', () => {
    const edges = relativeImports(SRC).filter(([, to]) => !SHARED_ROOT_FILES.has(to));
    expect(importCycles(edges)).toEqual([]);
    expect(importCycles(edges, (f) => unitOf(f, RANK))).toEqual([]);
  });

  it('src/ imports nothing named fake, recording or crash', () => {
    const named = importSpecifiers(SRC).filter((s) => /fake|recording|crash/i.test(s.split(' → ')[1]!));
    expect(named).toEqual([]);
  });
});
