import { describe, expect, it } from 'vitest';
import { rangeDimension } from '../../../backtest/sweep/param-space.js';
import { randomSampler } from '../../../backtest/sweep/random-sampler.js';
import { tpeSampler } from '../../../backtest/sweep/tpe-sampler.js';
import type { Observation, Params, Sampler } from '../../../backtest/sweep/sampler.js';

// A known objective through the same sampler interface as the sweep: a smooth bowl in three decimal parameters
// (exact strings, as the sweep hands them to configs), best at (0.73, 0.21, 0.5).
const dims = ['a', 'b', 'c'].map((p) => rangeDimension(p, [p], { from: '0', to: '1', sample: 'uniform', digits: 4 }));
const objective = (p: Params): number => -((Number(p['a']) - 0.73) ** 2 + (Number(p['b']) - 0.21) ** 2 + (Number(p['c']) - 0.5) ** 2);
const BUDGET = 60;
const SEEDS = Array.from({ length: 15 }, (_, i) => i + 1);

/**
 * The objective's values of the sampler's first `budget` points, or up to the first at or above `stopAt`: a point
 * depends only on the seed, its index and the history before it, so the ones after that would not change where it is
 * (TPE's ask walks the whole history: its later trials cost the most).
 */
function run(sampler: Sampler, budget: number, stopAt = Number.POSITIVE_INFINITY): number[] {
  const history: Observation[] = [];
  const values: number[] = [];
  for (let i = 0; i < budget; i++) {
    const params = sampler.ask(i, history);
    const v = objective(params);
    values.push(v);
    history.push({ params, score: v });
    if (v >= stopAt) break;
  }
  return values;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

describe('TPE against random search on a known objective', () => {
  it('reaches the random search’s best in fewer trials on most seeds (median over 15 seeds)', () => {
    const randomTrials: number[] = [];
    const tpeTrials: number[] = [];
    for (const seed of SEEDS) {
      const r = run(randomSampler(dims, { trials: BUDGET, seed }), BUDGET);
      const best = Math.max(...r);
      randomTrials.push(r.indexOf(best) + 1);
      // TPE gets the same budget plus as much again to get there; never reaching it counts as 2×budget + 1.
      const t = run(tpeSampler(dims, { trials: 2 * BUDGET, seed }), 2 * BUDGET, best);
      const reached = t.findIndex((v) => v >= best);
      tpeTrials.push(reached < 0 ? 2 * BUDGET + 1 : reached + 1);
    }
    process.stdout.write(
      `TPE trials to reach random best: ${tpeTrials.join(',')} (median ${median(tpeTrials)}); random: ${randomTrials.join(',')} (median ${median(randomTrials)})\n`,
    );
    const wins = SEEDS.filter((_, i) => tpeTrials[i]! < randomTrials[i]!).length;
    expect(median(tpeTrials), `TPE ${tpeTrials.join(',')} vs random ${randomTrials.join(',')}`).toBeLessThan(median(randomTrials));
    expect(wins).toBeGreaterThan(SEEDS.length / 2);
  });

  it('is a function of seed, index and history: the same history gives the same point', () => {
    const s = tpeSampler(dims, { trials: 30, seed: 9 });
    const history: Observation[] = [];
    for (let i = 0; i < 20; i++) {
      const p = s.ask(i, history);
      history.push({ params: p, score: objective(p) });
    }
    expect(s.ask(20, history)).toEqual(tpeSampler(dims, { trials: 30, seed: 9 }).ask(20, [...history]));
  });
});
