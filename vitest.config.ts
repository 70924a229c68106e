import { defineConfig } from 'vitest/config';

const INCLUDE = ['test/**/*.test.ts'];
const EXCLUDE = ['test/bench/**', 'node_modules/**'];

/**
 * Tests that run daemons in this process (signal and exception handlers, stdout spies), start child processes or
 * drive the CLI: each file in a fresh worker.
 */
const ISOLATED = ['test/integration/**/*.test.ts', 'test/chaos/**/*.test.ts', 'test/cli/**/*.test.ts'];

/**
 * vitest applies `--dir` to the root config only, not to projects: a run scoped so (new-strategy's test runs a
 * generated test this way) is one project, isolated, as the whole suite was before.
 */
const scopedToDir = process.argv.some((a) => a === '--dir' || a.startsWith('--dir='));

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // one fast-check seed for the whole suite, FC_SEED to change it (test/setup/fast-check-seed.ts)
    setupFiles: ['test/setup/fast-check-seed.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start real loopback servers; two cores, so keep the pool small. Four, not two: some files
    // mostly wait on children and the wall clock (the demo: ~25 s for 4 s of CPU; each chaos file: ~30 s for ~9 s),
    // and the longest start first, so with two workers both cores sat mostly idle for the suite's first minute; and
    // `npm test` runs the static checks beside the suite (bin/test.js), in that idle time.
    pool: 'forks',
    maxWorkers: 4,
    ...(scopedToDir
      ? { include: INCLUDE, exclude: EXCLUDE }
      : {
          projects: [
            { extends: true, test: { name: 'isolated', include: ISOLATED, exclude: EXCLUDE } },
            {
              extends: true,
              // The rest share a worker's module cache across files: a fresh worker per file cost ~0.5 s of start-up
              // and module loading each (a quarter of the suite's CPU), for files that leave no state behind.
              test: { name: 'shared', include: INCLUDE, exclude: [...ISOLATED, ...EXCLUDE], isolate: false },
            },
          ],
        }),
  },
});
