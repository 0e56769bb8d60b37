import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Workspace packages export their TypeScript source under the `source` condition and their compiled dist/ by
// default (package.json "exports"). Tests run the source: Vite resolves with the condition, and the processes and
// worker threads the tests start (tsx children, the recognition pool) inherit it through NODE_OPTIONS.
if (!process.env.NODE_OPTIONS?.includes('--conditions=source')) {
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, '--conditions=source'].filter(Boolean).join(' ');
}

/** Whether RECOGNITION_UPD_XSD names an existing file (the official FNS schema; not in the repository). */
function updXsdExists(): boolean {
  const path = process.env.RECOGNITION_UPD_XSD?.trim();
  if (!path) return false;
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Diadoc's published request/answer examples: third-party files the repository may not hold, so they are read from
 * DIADOC_EXAMPLES_DIR, by default `shared/reference/diadoc-examples/` beside the repository (docs/edo-gateway.md).
 * The contract test that replays them is collected only when they are there.
 */
process.env.DIADOC_EXAMPLES_DIR ??= resolve(import.meta.dirname, '../shared/reference/diadoc-examples');
const diadocExamplesPresent = existsSync(join(process.env.DIADOC_EXAMPLES_DIR, 'get-documents.json'));

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // the child-process crash harness needs PostgreSQL: vitest.crash.config.ts, run by .ci/run
    // Redis-backed stores (*.redis.int.test.ts) run only when REDIS_URL is set (.ci/run sets it); without it they
    // are not collected at all, so `npm test` on PGlite reports no skipped test.
    // Multi-process tests on one PostgreSQL (*.pg.test.ts) likewise run only when DATABASE_URL is PostgreSQL.
    // Checks against the official FNS schema (*.xsd.test.ts), which the repository does not ship, run only when
    // RECOGNITION_UPD_XSD names an existing file (docs/formalized-xml.md).
    exclude: [
      '**/node_modules/**',
      '**/*.crash.test.ts',
      ...(process.env.REDIS_URL ? [] : ['**/*.redis.int.test.ts']),
      ...(/^postgres(ql)?:/.test(process.env.DATABASE_URL ?? '') ? [] : ['**/*.pg.test.ts']),
      ...(updXsdExists() ? [] : ['**/*.xsd.test.ts']),
      ...(diadocExamplesPresent ? [] : ['**/*.published.contract.test.ts']),
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
