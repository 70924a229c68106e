import { readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/setup/longest-first.js';

const INCLUDE = ['test/**/*.test.ts'];
const EXCLUDE = ['test/bench/**', 'node_modules/**'];

/**
 * Where the tests that run daemons in this process (signal and exception handlers, stdout spies) or drive the CLI
 * in it (test/cli/venue-cli-harness.ts) live: each of their files in a fresh worker, a new file there too by default.
 */
const ISOLATED_DIRS = ['test/integration', 'test/chaos', 'test/cli'];

/**
 * The files of those folders that leave nothing in the worker: they start daemons and the CLI as child processes
 * (their clean-up in afterAll), talk to a sim over loopback as the shared tests do, run one-shot venue commands
 * through runBot (its stdout spies restored and exit code reset after each, as data-info's `bot record` in the shared
 * project), or test pure functions. They share workers with the rest: a fresh worker each cost its start-up and a
 * fresh import of the modules it loads (~0.2-0.3 s of CPU a file).
 */
const SHARED_ANYWAY = [
  'test/chaos/config-fuzz.test.ts',
  'test/chaos/journal-audit.test.ts',
  'test/chaos/trust-audit.test.ts',
  'test/cli/auto-build.test.ts',
  'test/cli/batch-commands.test.ts',
  'test/cli/check.test.ts',
  'test/cli/compiled-build.test.ts',
  'test/cli/kill-switch-cli.test.ts',
  'test/cli/lazy-commands.test.ts',
  'test/cli/new-strategy.test.ts',
  'test/cli/node-flags.test.ts',
  'test/cli/npm-start-demo.test.ts',
  'test/cli/readme-commands.test.ts',
  'test/cli/run-cli.test.ts',
  'test/cli/stop-signals.test.ts',
  'test/cli/venue-commands.test.ts',
  'test/integration/account-drawdown-restart.test.ts',
  'test/integration/batch-endpoints.test.ts',
  'test/integration/daemon-failures.test.ts',
  'test/integration/daemon-restart-bulk.test.ts',
  'test/integration/daemon-restart.test.ts',
  'test/integration/dead-man-daemon.test.ts',
  'test/integration/kill-switch.test.ts',
  'test/integration/public-trades.test.ts',
];

const ISOLATED = ISOLATED_DIRS.flatMap((dir) =>
  readdirSync(new URL(`${dir}/`, import.meta.url), { recursive: true, encoding: 'utf8' })
    .map((f) => `${dir}/${f}`)
    .filter((f) => f.endsWith('.test.ts') && !SHARED_ANYWAY.includes(f)),
);

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
    // a first run (a clean clone) starts the files known to take longest first (test/setup/longest-first.ts)
    sequence: { sequencer: LongestFirst },
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
