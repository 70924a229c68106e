import { availableParallelism } from 'node:os';

/**
 * Whether `bot backtest` runs its lanes on worker threads when neither `--parallel` nor `--sequential` is given: on a
 * machine of 3 or more cores. A one-shot run's worker starts cold, loading its modules and compiling the replay's hot
 * code again for itself, on top of what the main thread's collector and compiler threads already take: on this
 * project's 2-vCPU machine, a day of both lanes in a fresh process took 4.6-4.8 s in sequence against 5.0-6.5 s in
 * parallel (alternating runs; 5 s against 7-9 s of CPU). A warm worker, as a sweep's or the bench's, is ahead there too
 * (1.7-2.8 s against 2.6-4.0 s).
 */
export function parallelLanesByDefault(cores: number = availableParallelism()): boolean {
  return cores >= 3;
}
