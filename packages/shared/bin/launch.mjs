// The one launcher of the services' commands (bin/*.mjs of delivery-api and recognition-api), plain JavaScript so
// that it runs before anything is built.
import { existsSync } from 'node:fs';

/**
 * Loads the entry module `entry` (a path under src/ without its suffix, e.g. `operator/cli`) of the package whose
 * root is `packageRoot`: the compiled `dist/<entry>.js` after `npm run build` (production, plain node), else the
 * TypeScript source `src/<entry>.ts` through tsx (a checkout without a build). Resolves to the module's namespace.
 * @param {URL} packageRoot the package directory, e.g. `new URL('..', import.meta.url)` from its bin/
 * @param {string} entry
 * @returns {Promise<Record<string, unknown>>}
 */
export async function loadEntry(packageRoot, entry) {
  const compiled = new URL(`dist/${entry}.js`, packageRoot);
  if (existsSync(compiled)) return import(compiled.href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(new URL(`src/${entry}.ts`, packageRoot).href);
}
