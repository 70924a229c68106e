import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start real loopback servers; two cores, so keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
  },
});
