import { defineConfig } from 'vitest/config';

// The child-process crash harness of the delivery API (issue 15): PostgreSQL only, run by .ci/run.
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.crash.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
