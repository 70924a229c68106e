/**
 * The local executor: a piscina pool of worker threads, one backtest per thread at a time, `workers` threads
 * (default: the number of cores). Threads load the TypeScript sources through tsx (pool-worker.mjs), so a fresh
 * clone needs no build.
 */
import { workerEntry } from '../../src/loading/compiled-build.js';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { TrialJob, TrialRunOptions } from './run-trial.js';
import { unwrapOutcome, type TrialExecutor, type TrialOutcome } from './trial-executor.js';

export function defaultWorkers(): number {
  return availableParallelism();
}

export function trialPool(o: { workers?: number | undefined; run?: TrialRunOptions } = {}): TrialExecutor {
  const workers = Math.max(1, o.workers ?? defaultWorkers());
  const pool = new Piscina({
    filename: workerEntry(import.meta.url, './pool-worker.mjs').href,
    minThreads: workers,
    maxThreads: workers,
    concurrentTasksPerWorker: 1,
    idleTimeout: 60_000,
    // Same nursery as `bot` (bin/bot.js): fewer scavenges in the replay's allocation-heavy loop.
    resourceLimits: { maxYoungGenerationSizeMb: 128 },
  });
  const options = o.run ?? {};
  return {
    name: `pool of ${workers}`,
    concurrency: workers,
    run: async (job: TrialJob) => unwrapOutcome((await pool.run({ job, options })) as TrialOutcome),
    close: () => pool.destroy(),
  };
}
