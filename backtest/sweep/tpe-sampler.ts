/**
 * Tree-structured Parzen estimator (Bergstra et al. 2011; Optuna's default sampler), univariate form:
 *   1. the first `startup` trials are random (the very points the random sampler would try);
 *   2. then the finished trials are sorted by score and split: the best γ(n) = min(⌈0.2·n⌉, 25) are "good",
 *      the rest "bad" (a trial that broke a constraint is bad; a failed one is left out);
 *   3. per dimension, on the unit interval, l(x) is a Parzen density of the good points and g(x) of the bad ones:
 *      an equal-weight mixture of a flat prior and one truncated Gaussian per point, whose width is the larger
 *      gap to its neighbours (clipped to [1/min(n+1, 100), 1]), as Optuna does;
 *   4. `candidates` points are drawn from l (each dimension independently) and the one with the largest
 *      Σ_d log l_d(x) − log g_d(x) is the next trial: where good points are dense and bad ones are not.
 * All draws come from a PRNG seeded by (seed, trial index), so the answer depends only on seed, index and history.
 */
import { createPrng, type Prng } from '../../src/sim/prng.js';
import { unitOf, valueAt, type Dimension } from './param-space.js';
import { pointAt, randomUnits } from './random-sampler.js';
import { mixSeed, type Observation, type Params, type Sampler } from './sampler.js';

export interface TpeOptions {
  readonly trials: number;
  readonly seed: number;
  /** Random trials before the model is used. Default 10. */
  readonly startup?: number;
  /** Candidates drawn from l(x) per trial. Default 24 (Optuna's). */
  readonly candidates?: number;
}

interface Parzen {
  readonly mus: readonly number[];
  readonly sigmas: readonly number[];
}

const SQRT2 = Math.SQRT2;

/** Abramowitz-Stegun 7.1.26 (|error| < 1.5e-7), enough for kernel normalisation. */
function erf(x: number): number {
  const s = Math.sign(x);
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return s * y;
}
const cdf = (z: number): number => 0.5 * (1 + erf(z / SQRT2));

function parzen(points: readonly number[], nAll: number): Parzen {
  const sorted = [...points].sort((a, b) => a - b);
  const minSigma = 1 / Math.min(nAll + 1, 100);
  const sigmas = points.map((p) => {
    const i = sorted.indexOf(p);
    const left = i > 0 ? p - sorted[i - 1]! : p;
    const right = i < sorted.length - 1 ? sorted[i + 1]! - p : 1 - p;
    return Math.min(Math.max(left, right, minSigma), 1);
  });
  return { mus: points, sigmas };
}

/** Density on [0, 1]: (prior + Σ truncated normals) / (n + 1). */
function density(pz: Parzen, x: number): number {
  let sum = 1; // the flat prior's density on [0, 1]
  for (let k = 0; k < pz.mus.length; k++) {
    const mu = pz.mus[k]!;
    const s = pz.sigmas[k]!;
    const mass = cdf((1 - mu) / s) - cdf((0 - mu) / s);
    const z = (x - mu) / s;
    sum += Math.exp(-0.5 * z * z) / (s * Math.sqrt(2 * Math.PI) * Math.max(mass, 1e-12));
  }
  return sum / (pz.mus.length + 1);
}

function draw(pz: Parzen, rng: Prng): number {
  const k = rng.int(pz.mus.length + 1);
  if (k === pz.mus.length) return rng.next();
  for (let tries = 0; tries < 100; tries++) {
    const x = pz.mus[k]! + pz.sigmas[k]! * rng.normal();
    if (x >= 0 && x < 1) return x;
  }
  return Math.min(Math.max(pz.mus[k]!, 0), 1 - Number.EPSILON);
}

export function tpeSampler(dims: readonly Dimension[], o: TpeOptions): Sampler {
  const startup = o.startup ?? 10;
  const nCand = o.candidates ?? 24;
  return {
    kind: 'tpe',
    total: o.trials,
    ask(index: number, history: readonly Observation[]): Params {
      const scored = history.filter((h) => h.score !== undefined);
      if (index < startup || scored.length < 2) return pointAt(dims, randomUnits(o.seed, index, dims.length));
      // Stable order: by score, best first; ties keep history order.
      const order = scored.map((h, i) => ({ h, i })).sort((a, b) => b.h.score! - a.h.score! || a.i - b.i);
      const nGood = Math.min(Math.ceil(0.2 * order.length), 25);
      const good = order.slice(0, nGood).map((x) => x.h);
      const bad = order.slice(nGood).map((x) => x.h);
      const rng = createPrng(mixSeed(o.seed, index, 7));
      const l = dims.map((d) =>
        parzen(
          good.map((h) => unitOf(d, h.params[d.path]!)),
          scored.length,
        ),
      );
      const g = dims.map((d) =>
        parzen(
          bad.map((h) => unitOf(d, h.params[d.path]!)),
          scored.length,
        ),
      );
      let best: number[] = [];
      let bestScore = -Infinity;
      for (let c = 0; c < nCand; c++) {
        const x = l.map((pz) => draw(pz, rng));
        let s = 0;
        for (let d = 0; d < dims.length; d++) s += Math.log(density(l[d]!, x[d]!)) - Math.log(density(g[d]!, x[d]!));
        if (s > bestScore) {
          bestScore = s;
          best = x;
        }
      }
      return Object.fromEntries(dims.map((d, k) => [d.path, valueAt(d, best[k]!)]));
    },
  };
}
