/**
 * Seeded pseudo-random numbers for the simulated exchange (synthetic flow, investments, faults).
 * Math.random is never used so that a run is reproducible from its seed. mulberry32: tiny, fast and
 * good enough for simulation (not for secrets: codes use node:crypto).
 */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
  /** Poisson-distributed count with the given mean (Knuth; means here are small). */
  poisson(mean: number): number;
}

export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    normal: () => {
      const u = Math.max(next(), 1e-12);
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
    poisson: (mean) => {
      if (mean <= 0) return 0;
      // Large means (fast speed factors) use the normal approximation to stay O(1).
      if (mean > 30)
        return Math.max(0, Math.round(mean + Math.sqrt(mean) * (Math.sqrt(-2 * Math.log(Math.max(next(), 1e-12))) * Math.cos(2 * Math.PI * next()))));
      const limit = Math.exp(-mean);
      let k = 0;
      let p = next();
      while (p > limit) {
        k++;
        p *= next();
      }
      return k;
    },
  };
}
