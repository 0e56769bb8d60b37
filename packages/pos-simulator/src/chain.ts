import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import Value from 'typebox/value';
import { ChainSchema, type ChainDescription } from './chain.schema.js';

export type { ChainDescription, ChainPoint, ChainMenu, ChainMenuItem, ChainCategory, StopListEntry, Street, ProductMapping } from './chain.schema.js';

/** Absolute path of the demo chain "Вкусная Точка" (14 Moscow points, one menu). */
export const DEMO_CHAIN_PATH = fileURLToPath(new URL('../chains/demo-chain.json', import.meta.url));

/** A chain file that does not fit: `field` is a JSON-pointer-like path (`/points/3/route/organizationId`). */
export class ChainError extends Error {
  constructor(
    readonly field: string,
    detail: string,
    origin: string,
  ) {
    super(`${origin}: ${field} ${detail}`);
    this.name = 'ChainError';
  }
}

/**
 * Reads and validates a chain description (JSON, UTF-8).
 * @throws ChainError naming the first bad field (schema, duplicate ids, dangling references).
 */
export async function loadChain(path: string): Promise<ChainDescription> {
  const text = await readFile(path, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ChainError('/', `is not JSON: ${(err as Error).message}`, path);
  }
  return parseChain(raw, path);
}

/** Validates an already parsed chain description; see {@link loadChain}. */
export function parseChain(raw: unknown, origin = 'chain'): ChainDescription {
  if (!Value.Check(ChainSchema, raw)) {
    // The first error is the most specific one TypeBox reports for the offending path.
    const first = [...Value.Errors(ChainSchema, raw)][0];
    throw new ChainError(first?.instancePath || '/', first?.message ?? 'is invalid', origin);
  }
  checkReferences(raw, origin);
  return raw;
}

/** Cross-field rules a JSON schema cannot state: unique ids and references that resolve. */
function checkReferences(c: ChainDescription, origin: string): void {
  const fail = (field: string, detail: string): never => {
    throw new ChainError(field, detail, origin);
  };
  unique(
    c.points.map((p) => p.pointId),
    '/points',
    'pointId',
    fail,
  );
  // A POS credential is bound to one terminal group, so two points cannot share one.
  unique(
    c.points.map((p) => p.route.terminalGroupId),
    '/points',
    'route/terminalGroupId',
    fail,
  );
  c.points.forEach((p, i) => {
    if (p.streetsKey !== null && !(p.streetsKey in c.streetDictionaries)) {
      fail(`/points/${i}/streetsKey`, `"${p.streetsKey}" is not a key of streetDictionaries`);
    }
  });
  const categoryIds = new Set(c.menu.categories.map((x) => x.id));
  unique(
    c.menu.categories.map((x) => x.id),
    '/menu/categories',
    'id',
    fail,
  );
  c.menu.categories.forEach((x, i) => {
    if (x.parentId !== null && (!categoryIds.has(x.parentId) || x.parentId === x.id))
      fail(`/menu/categories/${i}/parentId`, 'names no other category');
  });
  const itemIds = new Set(c.menu.items.map((x) => x.id));
  unique(
    c.menu.items.map((x) => x.id),
    '/menu/items',
    'id',
    fail,
  );
  c.menu.items.forEach((x, i) => {
    if (!categoryIds.has(x.categoryId)) fail(`/menu/items/${i}/categoryId`, 'names no category');
  });
  c.stopList.initial.forEach((x, i) => {
    if (!itemIds.has(x.id)) fail(`/stopList/initial/${i}/id`, 'names no menu item');
  });
  c.stopList.rotation.forEach((id, i) => {
    if (!itemIds.has(id)) fail(`/stopList/rotation/${i}`, 'names no menu item');
  });
  unique(
    c.productMappings.map((m) => m.externalProductId),
    '/productMappings',
    'externalProductId',
    fail,
  );
  c.productMappings.forEach((m, i) => {
    if (!itemIds.has(m.productId)) fail(`/productMappings/${i}/productId`, 'names no menu item');
  });
}

function unique(values: string[], base: string, field: string, fail: (field: string, detail: string) => never): void {
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v)) fail(`${base}/${i}/${field}`, `duplicates "${v}"`);
    seen.add(v);
  });
}
