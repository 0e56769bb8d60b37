import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/**
 * The relative imports of a service's `src/`, for the architecture tests that check the layers drawn in
 * docs/architecture.md. Test support only (exported from `@app/shared/testing`, not built into dist).
 */

/** One import: the importing file and the imported file, both relative to `src/` with a `.ts` suffix. */
export type ImportEdge = readonly [from: string, to: string];

function* sourceFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sourceFiles(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) yield p;
  }
}

/** Every relative `from './…'` import (static, `import type` included) of the `.ts` files under `srcDir`. */
export function relativeImports(srcDir: string): ImportEdge[] {
  const out: ImportEdge[] = [];
  for (const file of sourceFiles(srcDir)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const to = relative(srcDir, normalize(join(dirname(file), m[1]!))).replace(/\.js$/, '.ts');
      out.push([relative(srcDir, file), to]);
    }
  }
  return out;
}

/** Every import specifier of `srcDir`'s files as `file → specifier` (packages included), e.g. to ban names. */
export function importSpecifiers(srcDir: string): string[] {
  return [...sourceFiles(srcDir)].flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => `${relative(srcDir, file)} → ${m[1]}`),
  );
}

/** The folders directly under `srcDir`. */
export function topFolders(srcDir: string): string[] {
  return readdirSync(srcDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}

/**
 * The layer unit of a file: the longest key of `ranks` that is the file itself or one of its folders, else `.`
 * (the root files). Keys are paths relative to `src/` (`orders`, `edo/diadoc`, `config.ts`).
 */
export function unitOf(file: string, ranks: Readonly<Record<string, number>>): string {
  let best = '.';
  for (const key of Object.keys(ranks)) {
    if ((file === key || file.startsWith(`${key}/`)) && key.length > best.length) best = key;
  }
  return best;
}

/**
 * The imports that go from a unit of a lower layer to a higher one (a larger rank is lower), each as
 * `from → to`. `exempt` files may be imported from anywhere (the one error table).
 */
export function upwardImports(
  edges: readonly ImportEdge[],
  ranks: Readonly<Record<string, number>>,
  exempt: ReadonlySet<string> = new Set(),
): string[] {
  return edges
    .filter(([from, to]) => !exempt.has(to) && ranks[unitOf(to, ranks)]! < ranks[unitOf(from, ranks)]!)
    .map(([from, to]) => `${from} → ${to}`);
}

/**
 * The import cycles of a graph whose nodes are `key(file)`: each strongly connected component of more than one
 * node, its nodes sorted and joined by ` ↔ `, the list sorted. With `key` the identity this finds file cycles;
 * with a unit function it finds cycles between folders, which ranks of equal value would not show.
 */
export function importCycles(edges: readonly ImportEdge[], key: (file: string) => string = (f) => f): string[] {
  const next = new Map<string, Set<string>>();
  for (const [from, to] of edges) {
    const a = key(from);
    const b = key(to);
    if (a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    next.get(a)!.add(b);
  }
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  let counter = 0;
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work: [string, Iterator<string>][] = [];
    const enter = (v: string) => {
      index.set(v, counter);
      low.set(v, counter++);
      stack.push(v);
      onStack.add(v);
      work.push([v, (next.get(v) ?? new Set<string>()).values()]);
    };
    enter(root);
    while (work.length > 0) {
      const [v, it] = work[work.length - 1]!;
      const step = it.next();
      if (!step.done) {
        const w = step.value;
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) cycles.push(component.sort().join(' ↔ '));
      }
    }
  }
  return cycles.sort();
}
