/**
 * The interface every sampler (grid, random, TPE) implements. A sampler is asked for trial `index` given the
 * history of finished trials, and answers with parameter values by path. Samplers are pure functions of
 * (seed, index, history): a resumed sweep replays the same history and gets the same answers.
 */
import type { ParamValue } from './param-space.js';

/** Values by param path (`strategies[0].params.spread` → "0.0006"). */
export type Params = Readonly<Record<string, ParamValue>>;

export interface Observation {
  readonly params: Params;
  /**
   * The objective turned into "higher is better" (a minimized objective is negated); -Infinity when the
   * trial broke a constraint; undefined when it failed (the sampler then ignores it).
   */
  readonly score: number | undefined;
}

export interface Sampler {
  readonly kind: 'grid' | 'random' | 'tpe';
  /** How many trials the sweep runs (the grid's size, or `trials`). */
  readonly total: number;
  ask(index: number, history: readonly Observation[]): Params;
}

/** 32-bit mix of a seed and numbers (FNV-1a over their decimal text), the seed of one trial's PRNG. */
export function mixSeed(...parts: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join(':')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
