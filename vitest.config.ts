import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // the child-process crash harness needs PostgreSQL: vitest.crash.config.ts, run by .ci/run
    // Redis-backed stores (*.redis.int.test.ts) run only when REDIS_URL is set (.ci/run sets it); without it they
    // are not collected at all, so `npm test` on PGlite reports no skipped test.
    // Multi-process tests on one PostgreSQL (*.pg.test.ts) likewise run only when DATABASE_URL is PostgreSQL.
    exclude: [
      '**/node_modules/**',
      '**/*.crash.test.ts',
      ...(process.env.REDIS_URL ? [] : ['**/*.redis.int.test.ts']),
      ...(/^postgres(ql)?:/.test(process.env.DATABASE_URL ?? '') ? [] : ['**/*.pg.test.ts']),
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
