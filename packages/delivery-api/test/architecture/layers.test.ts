import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of docs/architecture.md "The delivery API's layers", as a check on the imports of src/: a folder
 * imports only from folders of a lower (or its own) rank; nothing in src/ imports a fake, a recorder or a crash hook.
 */
const SRC = join(import.meta.dirname, '..', '..', 'src');
const RANK: Record<string, number> = {
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
  features: 8,
  redis: 8,
  retention: 8,
  health: 8,
  http: 8,
  common: 9,
};
/** Root files every layer may use (the one error table). */
const SHARED_ROOT_FILES = new Set(['errors.ts']);

function* sourceFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sourceFiles(p);
    else if (e.name.endsWith('.ts')) yield p;
  }
}

/** Every relative import of src/ as [importing file, imported file], both relative to src/. */
function imports(): [string, string][] {
  const out: [string, string][] = [];
  for (const file of sourceFiles(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      out.push([relative(SRC, file), relative(SRC, normalize(join(dirname(file), m[1]!))).replace(/\.js$/, '.ts')]);
    }
  }
  return out;
}

const folderOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : '.');

describe('delivery API layers', () => {
  it('every folder of src/ has a rank', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => RANK[f] === undefined)).toEqual([]);
  });

  it('no import points from a lower layer to a higher one', () => {
    const upward = imports().filter(([from, to]) => {
      if (SHARED_ROOT_FILES.has(to)) return false;
      return RANK[folderOf(to)]! < RANK[folderOf(from)]!;
    });
    expect(upward).toEqual([]);
  });

  it('src/ imports nothing named fake, recording or crash', () => {
    const named = [...sourceFiles(SRC)].flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)]
        .map((m) => `${relative(SRC, file)} → ${m[1]}`)
        .filter((s) => /fake|recording|crash/i.test(s.split(' → ')[1]!)),
    );
    expect(named).toEqual([]);
  });
});
