import { defineConfig } from 'vitest/config';

// Workspace packages export their TypeScript source under the `source` condition and their compiled dist/ by
// default (package.json "exports"). Tests run the source: Vite resolves with the condition, and the processes and
// worker threads the tests start (tsx children, the recognition pool) inherit it through NODE_OPTIONS.
if (!process.env.NODE_OPTIONS?.includes('--conditions=source')) {
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, '--conditions=source'].filter(Boolean).join(' ');
}

// The child-process crash harness of the delivery API (issue 15): PostgreSQL only, run by .ci/run.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/test/**/*.crash.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
