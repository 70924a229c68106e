/**
 * `npm run bench -- sweep`: trials per minute of a sweep on the local worker pool with 1 worker and with every
 * core, and the speed-up (target >= 0.8 × cores for trials of a few seconds). The trials are real backtests (the
 * market maker, both fill lanes) on a generated recording of `SWEEP_BENCH_SNAPSHOTS` 1 s snapshots (default 30,000:
 * ~2-3 s per trial here), a grid of 2 × cores spreads, run through runSweep exactly as `bot sweep` runs them. Both
 * pools are started and warmed (tsx loaded, one trial per thread) before the clock starts; the recording's binary
 * cache is built once first. Each side runs the same trials (a fresh output directory, no resume). The
 * baseline is the 1-worker pool measured in the same run; the figures are wall-clock, so a loaded machine shows.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSweepPlan } from '../../backtest/sweep/sweep-config.js';
import { runSweep } from '../../backtest/sweep/run-sweep.js';
import { trialPool } from '../../backtest/sweep/trial-pool.js';
import { stealMeter } from './cpu-steal.js';
import { benchDayFile } from './bench-day.js';

const dataFile = (n: number): Promise<string> => benchDayFile('sweep', n);

function sweepFile(dir: string, data: string, trials: number, tag: string): string {
  const spreads = Array.from({ length: trials }, (_, i) => `"${(0.0004 + 0.00005 * i).toFixed(5)}"`);
  writeFileSync(
    join(dir, 'backtest.yaml'),
    `data: [${JSON.stringify(data)}]\nbalances: { BTC: "1", USDT: "50000" }\npolling: { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 }\nstrategies:\n  - { id: mm, use: market-maker, market: BTC_USDT, params: { spread: "0.0006", size: "0.01", levels: 3 }, risk: { maxOpenOrders: 20 } }\n`,
  );
  const file = join(dir, `sweep-${tag}.yaml`);
  writeFileSync(
    file,
    `base: backtest.yaml\nspace:\n  strategies[0].params.spread: { values: [${spreads.join(', ')}] }\nsampler: { kind: grid }\nout: ${JSON.stringify(join(dir, tag))}\n`,
  );
  return file;
}

const cpuMs = (): number => {
  const u = process.cpuUsage(); // all threads of the process: the pool's workers included
  return (u.user + u.system) / 1000;
};

async function measure(
  workers: number,
  dir: string,
  data: string,
  trials: number,
): Promise<{ perMin: number; ms: number; trialMs: number; cpuPerTrial: number }> {
  const pool = trialPool({ workers });
  try {
    // Warm-up: every thread loads tsx and the sources and replays once (a different grid, so nothing is reused).
    await runSweep({ plan: loadSweepPlan(sweepFile(dir, data, workers, `warm-${workers}`)), executor: pool, outDir: join(dir, `warm-${workers}`) });
    const plan = loadSweepPlan(sweepFile(dir, data, trials, `run-${workers}`));
    const t0 = performance.now();
    const c0 = cpuMs();
    const out = await runSweep({ plan, executor: pool, outDir: join(dir, `run-${workers}`) });
    const ms = performance.now() - t0;
    const failed = out.records.filter((r) => r.status === 'failed');
    if (failed.length > 0) throw new Error(`bench trial failed: ${failed[0]!.error}`);
    const trialMs = out.records.reduce((a, r) => a + (r.figures?.ms ?? 0), 0) / out.records.length;
    return { perMin: (60_000 * trials) / ms, ms, trialMs, cpuPerTrial: (cpuMs() - c0) / trials };
  } finally {
    await pool.close();
  }
}

export default async function sweepBench(): Promise<void> {
  const n = Number(process.env.SWEEP_BENCH_SNAPSHOTS ?? 30_000);
  const cores = availableParallelism();
  const trials = 2 * cores;
  const data = await dataFile(n);
  const dir = mkdtempSync(join(tmpdir(), 'sweep-bench-'));
  // Builds the recording's binary cache once, so neither side pays it.
  await measure(1, dir, data, 1);
  const load = loadavg()[0]!;
  const steal = stealMeter();
  const one = await measure(1, dir, data, trials);
  const all = await measure(cores, dir, data, trials);
  const speedup = all.perMin / one.perMin;
  process.stdout.write(
    [
      `${trials} trials of ${n} snapshots (market maker, 2 lanes), ${cores} cores`,
      `load average before the run: ${load.toFixed(2)} (other processes on ${cores} cores)`,
      `1 worker:        ${one.perMin.toFixed(1)} trials/min  (${(one.ms / 1000).toFixed(1)} s; ${(one.trialMs / 1000).toFixed(2)} s wall, ${(one.cpuPerTrial / 1000).toFixed(2)} s CPU per trial)`,
      `${cores} workers:       ${all.perMin.toFixed(1)} trials/min  (${(all.ms / 1000).toFixed(1)} s; ${(all.trialMs / 1000).toFixed(2)} s wall, ${(all.cpuPerTrial / 1000).toFixed(2)} s CPU per trial)`,
      `speed-up ${speedup.toFixed(2)} = ${(speedup / cores).toFixed(2)} × cores (target >= 0.8 × cores)`,
      steal(),
      '',
    ].join('\n'),
  );
}
