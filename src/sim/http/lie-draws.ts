import type { Prng } from '../prng.js';

// The lying venue's seeded draws (venue-lies.ts), all from its own stream.

/** One of the list; a single choice draws no number. */
export function pick<T>(prng: Prng, list: readonly T[]): T {
  return list.length === 1 ? list[0]! : list[Math.floor(prng.next() * list.length)]!;
}

export function roll(prng: Prng, probability: number | undefined): boolean {
  if (probability === undefined || probability <= 0) return false;
  return prng.next() < probability;
}

/** Exponential gap between episodes of a Poisson process of `perMinute`, ms. */
export function gapMs(prng: Prng, perMinute: number): number {
  return Math.round((-Math.log(1 - prng.next()) * 60_000) / perMinute);
}
