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
    // Integration tests start real loopback servers; two cores, so keep the pool small. Three, not two: some files
    // mostly wait on children and the wall clock (npm-start-demo: 61 s for 5 s of CPU; chaos-run: 72 s for 25 s), and
    // the longest start first, so with two workers both cores sat mostly idle for the suite's first minute.
    pool: 'forks',
    maxWorkers: 3,
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
