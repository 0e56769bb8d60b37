import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // the child-process crash harness needs PostgreSQL: vitest.crash.config.ts, run by .ci/run
    exclude: ['**/node_modules/**', '**/*.crash.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
