import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // the child-process crash harness needs PostgreSQL: vitest.crash.config.ts, run by .ci/run
    // Redis-backed stores (*.redis.int.test.ts) run only when REDIS_URL is set (.ci/run sets it); without it they
    // are not collected at all, so `npm test` on PGlite reports no skipped test.
    exclude: ['**/node_modules/**', '**/*.crash.test.ts', ...(process.env.REDIS_URL ? [] : ['**/*.redis.int.test.ts'])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
