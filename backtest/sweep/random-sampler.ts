/** Random search: each trial's point drawn uniformly (log-uniformly for `sample: log`) from its own seeded PRNG. */
import { createPrng } from '../../src/sim/prng.js';
import { valueAt, type Dimension } from './param-space.js';
import { mixSeed, type Params, type Sampler } from './sampler.js';

/** The unit coordinates of trial `index` (shared with TPE's start-up trials). */
export function randomUnits(seed: number, index: number, n: number): number[] {
  const rng = createPrng(mixSeed(seed, index));
  return Array.from({ length: n }, () => rng.next());
}

export function pointAt(dims: readonly Dimension[], units: readonly number[]): Params {
  return Object.fromEntries(dims.map((d, k) => [d.path, valueAt(d, units[k]!)]));
}

export function randomSampler(dims: readonly Dimension[], o: { trials: number; seed: number }): Sampler {
  return {
    kind: 'random',
    total: o.trials,
    ask: (index) => pointAt(dims, randomUnits(o.seed, index, dims.length)),
  };
}
