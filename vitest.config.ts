import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // one fast-check seed for the whole suite, FC_SEED to change it (test/setup/fast-check-seed.ts)
    setupFiles: ['test/setup/fast-check-seed.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start real loopback servers; two cores, so keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
  },
});
