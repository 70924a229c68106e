/**
 * `npm run bench -- backtest`: replay throughput of the backtest engine with the market maker, next to
 * the floors of only reading the same file, on a generated day of 1 s snapshots (20 levels a side; generated
 * once under the OS temp dir and kept). Two floors: the text (read + gunzip + JSON parse of the .jsonl.gz) and
 * the binary cache (backtest/data/recording-cache.ts; built here once, timed, into <tmp>/v4-trader-bench/cache).
 * Figures: snapshots/s of each, the replay from the cache (1 lane, 2 lanes) and from the text (1 lane), the
 * ratio replay/floor against each floor (target >= 0.5) and the time for the day (target < 2 s). Both sides are
 * warmed first (each floor by a full read, the engine by a full replay of both lanes in this thread and one with the
 * lane worker, whose times are printed as the process's first runs), and the 1-lane ratios are also given on process
 * CPU time, which a shared machine disturbs less
 * than wall time. The replay runs the compiled build (see compiledReplay); `a day, one lane` and `a day, both lanes`
 * (the #13 targets) and the cache floor are medians of three runs, and the idle share comes from a separate profiled run. Timed runs drop
 * their journal records as `bot backtest` does (runBacktest's keepJournal); the fingerprinted runs keep them.
 * `BACKTEST_BENCH_SNAPSHOTS=N` replays a shorter file (e.g. 10000) on a slow or shared machine.
 * `BACKTEST_BENCH_BASELINE=<checkout>` also times that checkout's compiled build against this one, alternately in this
 * process, and prints the ratio and both fingerprints (baseline-build.ts; `BACKTEST_BENCH_ROUNDS` runs each, default 5).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRecordingCache } from '../../backtest/data/recording-cache.js';
import { DataFeed } from '../../backtest/replay/data-feed.js';
import { parallelLanesByDefault } from '../../backtest/replay/lane-threads.js';
import * as sourceRun from '../../backtest/replay/run-backtest.js';
import * as sourceDecimal from '../../src/model/decimal.js';
import * as sourceStrategy from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import { freshBuildDir } from '../../src/loading/fresh-build.mjs';
import { compareWithBaseline } from './baseline-build.js';
import { calibrate, calibrationLine } from './calibration.js';
import { idleShare } from './idle-share.js';
import { benchDayFile } from './bench-day.js';
import { replaySplit, splitLine } from './replay-split.js';

const dataFile = (n: number): Promise<string> => benchDayFile('backtest', n);

/**
 * A floor: read every event and build the snapshot views the replay builds (best bid/ask in ticks), from the
 * text (`cacheDir` false: read + gunzip + JSON parse) or from the binary cache (read + decode).
 */
async function readOnly(file: string, cacheDir: string | false): Promise<number> {
  const feed = new DataFeed({ files: [file], cache: { dir: cacheDir } });
  let n = 0;
  let checksum = 0;
  for (let e = await feed.next(); e !== undefined; e = await feed.next()) {
    if (e.kind !== 'book') continue;
    n += 1;
    checksum += (e.snapshot.bidTicks()[0] ?? 0) + (e.snapshot.askTicks()[0] ?? 0);
  }
  if (checksum === 0) throw new Error('empty file');
  const wanted = cacheDir === false ? 'text' : 'cache';
  if (feed.sources[0] !== wanted) throw new Error(`floor read from ${feed.sources[0]}, not ${wanted}`);
  return n;
}

/**
 * The replay's modules from the compiled build (`npm run bench` builds first), as `bot backtest` and its lane workers
 * run them once `npm run build` was run: the figures are those of the code a user runs. One line also times the
 * TypeScript sources through tsx (no build), for comparison.
 */
async function compiledReplay() {
  const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
  const dist = freshBuildDir(root);
  if (dist === undefined)
    throw new Error('the backtest bench replays the compiled build and there is no fresh one: run `npm run build` (`npm run bench` does)');
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(dist, path)).href)) as T;
  return {
    ...(await load<typeof import('../../backtest/replay/run-backtest.js')>('backtest/replay/run-backtest.js')),
    ...(await load<typeof import('../../backtest/replay/run-parallel.js')>('backtest/replay/run-parallel.js')),
    ...(await load<typeof import('../../backtest/replay/replay-fingerprint.js')>('backtest/replay/replay-fingerprint.js')),
    ...(await load<typeof import('../../src/model/decimal.js')>('src/model/decimal.js')),
    ...(await load<typeof import('../../src/strategy/load-strategy.js')>('src/strategy/load-strategy.js')),
    ...(await load<typeof import('../../src/strategy/index.js')>('src/strategy/index.js')),
    // the compiled strategies too, as `bot backtest` from the build loads them
    compiledStrategies: (await load<typeof import('../../strategies/index.js')>('strategies/index.js')).builtinStrategies,
  };
}

/** The run of median time (of an odd number). */
function median<T extends { ms: number }>(runs: readonly T[]): T {
  return [...runs].sort((a, b) => a.ms - b.ms)[runs.length >> 1]!;
}

/** `bot backtest` of the day as a user runs it: a fresh process each (cold JIT on every thread), both modes. */
function cliDay(file: string, cacheDir: string): { parallel: number; sequential: number } {
  const dir = join(tmpdir(), 'v4-trader-bench');
  const config = join(dir, 'bench-backtest.yaml');
  writeFileSync(
    config,
    [
      `data: [${file}]`,
      'balances: { BTC: "10", USDT: "1000000" }',
      'fills: [optimistic, pessimistic]',
      'polling: { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 }',
      'strategies:',
      '  - { id: mm, use: market-maker, market: BTC_USDT, params: { spread: "0.0004", size: "0.01", levels: 1, maxInventory: "0.1", refreshThreshold: "0.0002" } }',
      `out: ${join(dir, 'bench-backtest-out')}`,
    ].join('\n'),
  );
  const bot = fileURLToPath(new URL('../../bin/bot.js', import.meta.url));
  const once = (extra: string[]): number => {
    const t = performance.now();
    execFileSync(
      process.execPath,
      ['--max-semi-space-size=64', '--min-semi-space-size=64', bot, 'backtest', config, '--no-progress', '--cache', cacheDir, ...extra],
      { stdio: 'ignore' },
    );
    return (performance.now() - t) / 1000;
  };
  return { parallel: once(['--parallel']), sequential: once(['--sequential']) };
}

export default async function backtestBench(): Promise<void> {
  const n = Number(process.env.BACKTEST_BENCH_SNAPSHOTS ?? 86_400);
  const calibrationBefore = calibrate();
  const file = await dataFile(n);
  const cacheDir = join(tmpdir(), 'v4-trader-bench', 'cache');
  const compiled = await compiledReplay();
  const { runBacktest, runBacktestParallel, replayFingerprint, D, loadStrategy, compiledStrategies } = compiled;
  const params = { spread: '0.0004', size: '0.01', levels: 1, maxInventory: '0.1', refreshThreshold: '0.0002' };
  const strategies = [{ id: 'mm', definition: await loadStrategy(compiledStrategies, 'market-maker'), market: 'BTC_USDT', params }];
  const polling = { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 };

  const cpuMs = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const timed = async <T>(f: () => Promise<T>): Promise<{ value: T; ms: number; cpu: number }> => {
    const cpu = cpuMs();
    const t = performance.now();
    const value = await f();
    return { value, ms: performance.now() - t, cpu: cpuMs() - cpu };
  };

  // The text floor, as before the cache: warm the page cache and the JIT, then measure.
  await readOnly(file, false);
  const textFloor = await timed(() => readOnly(file, false));
  // The one-off cache build (what the first replay of a file pays on top of the text read), then the cache floor.
  const build = await timed(() => buildRecordingCache(file, { dir: cacheDir, force: true }));
  if (build.value.status !== 'built')
    throw new Error(`the bench file was not cached: ${build.value.status === 'skipped' ? build.value.reason : build.value.status}`);
  await readOnly(file, cacheDir);
  // the median of three, as the replay lines it divides are: one read swung 68-108 ms between runs on a shared machine
  const cacheFloors = [await timed(() => readOnly(file, cacheDir)), await timed(() => readOnly(file, cacheDir)), await timed(() => readOnly(file, cacheDir))];
  const cacheFloor = median(cacheFloors);

  // Each run is kept as the few facts printed (and the fingerprint where compared), not as its result: lanes hold
  // their whole runtime and journal, and a process holding several would time the later runs against a heap that
  // the earlier ones bloated (the collector's marking grows with it).
  type Outcome = Awaited<ReturnType<typeof runBacktestParallel>>;
  const factsOf = (r: Outcome, fingerprint: boolean) => ({
    snapshots: r.snapshots,
    trades: r.trades,
    placed: r.lanes[0]!.exchange.placed,
    fills: r.lanes[0]!.exchange.fills.length,
    fingerprint: fingerprint ? replayFingerprint(r) : undefined,
  });
  const compact = async (f: () => Promise<Outcome>, fingerprint = false) => {
    const t = await timed(f);
    return { ms: t.ms, cpu: t.cpu, value: factsOf(t.value, fingerprint) };
  };
  const run = (assumptions: Array<'optimistic' | 'pessimistic'>, cache: string | false, to?: number, fingerprint = false) =>
    compact(
      () =>
        runBacktest({
          files: [file],
          cache: { dir: cache },
          strategies,
          balances: { BTC: D('10'), USDT: D('1000000') },
          polling,
          assumptions,
          keepJournal: fingerprint,
          ...(to === undefined ? {} : { to }),
        }),
      fingerprint,
    );
  // both lanes at once: the first in this thread, the second on a worker thread (the default of `bot backtest`)
  const sources = [{ id: 'mm', use: 'market-maker', cwd: process.cwd(), market: 'BTC_USDT', params }];
  const parallelRun = (fingerprint: boolean, to?: number) =>
    runBacktestParallel({
      files: [file],
      cache: { dir: cacheDir },
      sources,
      balances: { BTC: D('10'), USDT: D('1000000') },
      polling,
      assumptions: ['optimistic', 'pessimistic'],
      fingerprint,
      ...(to === undefined ? {} : { to }),
    });
  // Warm up as the floors were warmed, by the whole measurement once: both lanes in this thread, then both lanes with
  // the second on the lane worker (which then waits warm for the next run, as in a sweep). A process's first full
  // replay runs slower than the ones after it (~0.3-0.6 s more here, in each thread, however long a shorter warm-up
  // was: the heap and the compiled code settle over the first runs), so the target lines are of the steady state,
  // as a sweep's trials run, and these first runs are printed beside them; the fresh-process line is the one-shot.
  const warmTo = 1_700_000_000_000 + Math.min(10_000, Math.ceil(n / 10)) * 1000;
  const firstBoth = await run(['optimistic', 'pessimistic'], cacheDir);
  const firstParallel = await compact(() => parallelRun(false));
  // the two target lines are the median of three runs each (a shared machine moves single runs by ±15 %)
  const ones = [await run(['pessimistic'], cacheDir), await run(['pessimistic'], cacheDir), await run(['pessimistic'], cacheDir)];
  const one = median(ones);
  const split = await replaySplit(compiled, { file, cacheDir, params, polling });
  const both = await run(['optimistic', 'pessimistic'], cacheDir, undefined, true);
  const oneText = await run(['pessimistic'], false);
  // timed as `bot backtest` runs it (no lane hashes)
  const parallels = [await compact(() => parallelRun(false)), await compact(() => parallelRun(false)), await compact(() => parallelRun(false))];
  const parallel = median(parallels);
  if (replayFingerprint(await parallelRun(true)) !== both.value.fingerprint) throw new Error('the parallel lanes decided otherwise than the sequential ones');
  // the same lane from the TypeScript sources through tsx (no build), warmed the same way
  const sourceReplay = (to?: number) =>
    compact(async () =>
      sourceRun.runBacktest({
        files: [file],
        cache: { dir: cacheDir },
        polling,
        assumptions: ['pessimistic'],
        keepJournal: false,
        balances: { BTC: sourceDecimal.D('10'), USDT: sourceDecimal.D('1000000') },
        strategies: [{ ...strategies[0]!, definition: await sourceStrategy.loadStrategy(builtinStrategies, 'market-maker') }],
        ...(to === undefined ? {} : { to }),
      }),
    );
  await sourceReplay(warmTo);
  const oneSource = await sourceReplay();
  const cli = cliDay(file, cacheDir);
  // the main thread's (idle) share under the CPU profiler, as `node --cpu-prof` shows it (a separate, slower run)
  const profiledOne = await idleShare(() => run(['pessimistic'], cacheDir));
  const profiledBoth = await idleShare(() => run(['optimistic', 'pessimistic'], cacheDir));
  const baseline = process.env.BACKTEST_BENCH_BASELINE;
  const againstBaseline =
    baseline === undefined
      ? []
      : await compareWithBaseline(baseline, compiled, { file, cacheDir, params, polling }, Number(process.env.BACKTEST_BENCH_ROUNDS ?? 5));

  const calibrationAfter = calibrate();
  // events the replay steps through (book snapshots + public trades), per lane and second of wall time
  const events = (x: { ms: number; value: { snapshots: number; trades: number } }): string =>
    `${((x.value.snapshots + x.value.trades) / x.ms / 1000).toFixed(3)} M events/s`;
  const rate = (count: number, ms: number): string => `${Math.round((count * 1000) / ms).toLocaleString('en-US')} snapshots/s`;
  const r = (floor: number, x: number): string => (floor / x).toFixed(3);
  const day = (x: { ms: number; value: { snapshots: number } }): string => ((86_400 * x.ms) / x.value.snapshots / 1000).toFixed(2);
  process.stdout.write(
    [
      `file: ${n.toLocaleString('en-US')} snapshots of 1 s, 20 levels a side (${file})`,
      `floor, text (read + gunzip + JSON parse):      ${rate(textFloor.value, textFloor.ms)}  (${textFloor.ms.toFixed(0)} ms; CPU ${textFloor.cpu.toFixed(0)} ms)`,
      `cache build (one-off, text read + encode):     ${build.ms.toFixed(0)} ms  (CPU ${build.cpu.toFixed(0)} ms; ${(build.value.bytes / 2 ** 20).toFixed(1)} MiB in ${cacheDir})`,
      `floor, cache (read + decode the binary cache): ${rate(cacheFloor.value, cacheFloor.ms)}  (${cacheFloor.ms.toFixed(0)} ms, median of ${cacheFloors.map((x) => x.ms.toFixed(0)).join(', ')}; CPU ${cacheFloor.cpu.toFixed(0)} ms)`,
      `replay, market maker, 1 lane, from cache:      ${rate(one.value.snapshots, one.ms)}  (${one.ms.toFixed(0)} ms; CPU ${one.cpu.toFixed(0)} ms; ${one.value.placed} orders, ${one.value.fills} fills)`,
      `replay, market maker, 2 lanes (band), cache:   ${rate(both.value.snapshots, both.ms)}  (${both.ms.toFixed(0)} ms; CPU ${both.cpu.toFixed(0)} ms)`,
      `replay, market maker, 1 lane, from text:       ${rate(oneText.value.snapshots, oneText.ms)}  (${oneText.ms.toFixed(0)} ms; CPU ${oneText.cpu.toFixed(0)} ms)`,
      `ratio replay/cache floor: 1 lane ${r(cacheFloor.ms, one.ms)}, 2 lanes ${r(cacheFloor.ms, both.ms)}  (target, 1 lane: >= 0.15, issue 27; 1 lane on CPU time: ${r(cacheFloor.cpu, one.cpu)})`,
      splitLine(split, cacheFloor.ms, { ms: one.ms, placed: one.value.placed }),
      `ratio replay/text floor:  1 lane from cache ${r(textFloor.ms, one.ms)}, 2 lanes from cache ${r(textFloor.ms, both.ms)}, 1 lane from text ${r(textFloor.ms, oneText.ms)}  (on CPU time: 1 lane from cache ${r(textFloor.cpu, one.cpu)}, from text ${r(textFloor.cpu, oneText.cpu)})`,
      `a day of 1 s snapshots (86,400) at the 1-lane rate: ${day(one)} s from the cache, ${day(oneText)} s from the text  (target < 2 s)`,
      `a day, both lanes: ${day(parallel)} s  (median of ${parallels.map(day).join(', ')}; replay only, from the cache, the second lane on a warm worker thread; target < 2 s; in sequence in one thread: ${day(both)} s)`,
      `a day, one lane: ${day(one)} s  (median of ${ones.map(day).join(', ')}; target < 1.5 s; the compiled build, as bot backtest runs it; from the TypeScript through tsx, no build: ${day(oneSource)} s)`,
      `the process's first full runs (the warm-up): both lanes in sequence ${day(firstBoth)} s, in parallel ${day(firstParallel)} s (the worker's first)`,
      `bot backtest of the day in a fresh process (start-up, replay, report): both lanes --parallel ${cli.parallel.toFixed(2)} s, --sequential ${cli.sequential.toFixed(2)} s (the default on ${availableParallelism()} cores: ${parallelLanesByDefault() ? '--parallel' : '--sequential'})`,
      `main thread idle during the replay (CPU profile): one lane ${(100 * profiledOne.idle).toFixed(1)} %, both lanes ${(100 * profiledBoth.idle).toFixed(1)} %  (target < 10 %; garbage collector ${(100 * profiledOne.gc).toFixed(1)} % / ${(100 * profiledBoth.gc).toFixed(1)} %)`,
      `fresh/warm: ${((cli.sequential * 1000) / both.ms).toFixed(2)}  (a fresh \`bot backtest --sequential\` of the day, ${cli.sequential.toFixed(2)} s, over the warm in-sequence replay of both lanes in this process, ${(both.ms / 1000).toFixed(2)} s)`,
      `events per second, one lane: ${events(one)} from the cache, ${events(oneText)} from the text (book snapshots + trades; anchor: NautilusTrader's Python path ~0.5 M events/s as published)`,
      `${calibrationLine(calibrationBefore)} before, ${calibrationAfter.arithmeticMs.toFixed(0)} / ${calibrationAfter.allocationMs.toFixed(0)} ms after`,
      `replay fingerprint, both lanes (intents, fills, equity, journal; must not change with speed work): ${both.value.fingerprint}`,
      ...againstBaseline,
      '',
    ].join('\n'),
  );
}
