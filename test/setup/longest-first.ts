import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest by the wall clock, in ms, as measured on 2 cores in a whole `npm test` (a0be85c). Most
 * of that time they wait on children, daemons and real time, not on a core. Kept roughly: only their order matters.
 */
const LONGEST_MS: ReadonlyMap<string, number> = new Map([
  ['test/cli/readme-commands.test.ts', 38_500],
  ['test/chaos/chaos-lying.test.ts', 34_400],
  ['test/cli/npm-start-demo.test.ts', 25_600],
  ['test/chaos/chaos-faults.test.ts', 23_800],
  ['test/backtest/tardis-import.test.ts', 23_200],
  ['test/integration/paper-daemon.test.ts', 18_400],
  ['test/chaos/chaos-malformed.test.ts', 15_200],
  ['test/integration/ops-metrics.test.ts', 14_200],
  ['test/app/upstream-feed.test.ts', 14_200],
  ['test/integration/dead-man-daemon.test.ts', 14_100],
  ['test/backtest/backtest-interrupt.test.ts', 13_200],
  ['test/backtest/cli-backtest.test.ts', 12_800],
  ['test/backtest/parity/cli-parity.test.ts', 12_500],
  ['test/backtest/sweep/cli-sweep.test.ts', 12_400],
  ['test/chaos/config-fuzz.test.ts', 12_100],
  ['test/venue/rate-limit.sim.test.ts', 12_000],
  ['test/cli/cli-exits.test.ts', 11_900],
]);

/**
 * vitest's own order, except on a first run. vitest starts the files it has timed longest first (its results cache in
 * node_modules/.vite); with no cache, as on a clean clone (`.ci/run`), it starts the LARGEST files first, which started a
 * 12-s wall-clock test last and left a core idle at the end: a clean clone's `npm test` took ~182 s where a second run
 * took ~169 s. Here a first run starts the files above first, longest first, and the rest in vitest's order.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const timed = sorted.some((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(root, f.moduleId)}`) !== undefined);
    if (timed) return sorted;
    const known = (f: TestSpecification): number => LONGEST_MS.get(relative(root, f.moduleId)) ?? 0;
    return [...sorted.filter((f) => known(f) > 0).sort((a, b) => known(b) - known(a)), ...sorted.filter((f) => known(f) === 0)];
  }
}
