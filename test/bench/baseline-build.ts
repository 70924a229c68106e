/**
 * `BACKTEST_BENCH_BASELINE=<checkout> npm run bench -- backtest`: the replay of another checkout's compiled build (the
 * code before a change: `git archive <commit> | tar -x -C <dir>`, node_modules linked, `node bin/build.js` there) timed
 * against this one's in the same process, the two runs alternating (old, new, new, old, ...) so that the machine's
 * drift and the other jobs of a shared machine fall on both alike. Each run is one lane of the day from the cache,
 * journal dropped, as the bench's `a day, one lane`; both builds are warmed by a run first. The ratio is new / old of
 * the medians (wall and CPU time), with each pair's ratio beside it; the fingerprint of both lanes is given for each.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshBuildDir } from '../../src/loading/fresh-build.mjs';

/** The replay's modules from a checkout's compiled build. */
export async function replayBuild(root: string) {
  const dist = freshBuildDir(root);
  if (dist === undefined) throw new Error(`no fresh build of ${root}: run \`node bin/build.js\` there`);
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(dist, path)).href)) as T;
  return {
    ...(await load<typeof import('../../backtest/replay/run-backtest.js')>('backtest/replay/run-backtest.js')),
    ...(await load<typeof import('../../backtest/replay/replay-fingerprint.js')>('backtest/replay/replay-fingerprint.js')),
    ...(await load<typeof import('../../src/model/decimal.js')>('src/model/decimal.js')),
    ...(await load<typeof import('../../src/strategy/load-strategy.js')>('src/strategy/load-strategy.js')),
    compiledStrategies: (await load<typeof import('../../strategies/index.js')>('strategies/index.js')).builtinStrategies,
  };
}

type Build = Awaited<ReturnType<typeof replayBuild>>;

export interface ReplaySetup {
  readonly file: string;
  readonly cacheDir: string;
  readonly params: Record<string, unknown>;
  readonly polling: { bookMs: number; bookLimit: number; balancesMs: number; openOrdersMs: number; dealsMs: number };
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function runOf(build: Build, s: ReplaySetup) {
  const strategies = [{ id: 'mm', definition: await build.loadStrategy(build.compiledStrategies, 'market-maker'), market: 'BTC_USDT', params: s.params }];
  const replay = (assumptions: Array<'optimistic' | 'pessimistic'>, keepJournal: boolean) =>
    build.runBacktest({
      files: [s.file],
      cache: { dir: s.cacheDir },
      strategies,
      balances: { BTC: build.D('10'), USDT: build.D('1000000') },
      polling: s.polling,
      assumptions,
      keepJournal,
    });
  return {
    timed: async (): Promise<{ ms: number; cpu: number; fills: number }> => {
      const cpu = cpuMs();
      const t = performance.now();
      const r = await replay(['pessimistic'], false);
      return { ms: performance.now() - t, cpu: cpuMs() - cpu, fills: r.lanes[0]!.exchange.fills.length };
    },
    fingerprint: async (): Promise<string> => build.replayFingerprint(await replay(['optimistic', 'pessimistic'], true)),
  };
}

/** The lines the bench prints for the comparison (`rounds` pairs, odd for a median of the runs). */
export async function compareWithBaseline(baselineRoot: string, current: Build, s: ReplaySetup, rounds: number): Promise<string[]> {
  const old = await runOf(await replayBuild(baselineRoot), s);
  const now = await runOf(current, s);
  await old.timed();
  await now.timed();
  const runs = { old: [] as Array<{ ms: number; cpu: number; fills: number }>, now: [] as Array<{ ms: number; cpu: number; fills: number }> };
  for (let k = 0; k < rounds; k++) {
    // alternate who goes first, so that neither build always runs on the heap the other just left
    const order = k % 2 === 0 ? (['old', 'now'] as const) : (['now', 'old'] as const);
    for (const which of order) runs[which].push(await (which === 'old' ? old : now).timed());
  }
  const ratio = (f: (r: { ms: number; cpu: number }) => number): string => (median(runs.now.map(f)) / median(runs.old.map(f))).toFixed(3);
  const pairs = runs.now.map((r, i) => (r.ms / runs.old[i]!.ms).toFixed(3)).join(', ');
  const [oldPrint, nowPrint] = [await old.fingerprint(), await now.fingerprint()];
  const ms = (xs: ReadonlyArray<{ ms: number }>): string => xs.map((r) => r.ms.toFixed(0)).join(', ');
  return [
    `baseline ${baselineRoot} against this build: the bench file, one lane from the cache, alternating (${rounds} runs each):`,
    `  old: ${ms(runs.old)} ms (median ${median(runs.old.map((r) => r.ms)).toFixed(0)}); new: ${ms(runs.now)} ms (median ${median(runs.now.map((r) => r.ms)).toFixed(0)})`,
    `  ratio new/old: wall ${ratio((r) => r.ms)}, CPU ${ratio((r) => r.cpu)}  (pairs, wall: ${pairs}; fills ${runs.old[0]!.fills} old, ${runs.now[0]!.fills} new)`,
    `  replay fingerprint, both lanes: old ${oldPrint}, new ${nowPrint}${oldPrint === nowPrint ? ' (the same)' : ' (DIFFERENT)'}`,
  ];
}
