import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPlainDecimal, MAX_DECIMALS, plainDecimal } from '../../backtest/data/plain-decimal.js';
import { Decimal } from '../../src/model/decimal.js';

/** A Decimal's parts and class, as decimal.js keeps them (what every later operation reads). */
const parts = (x: Decimal) => {
  const p = x as unknown as { s: number; e: number; d: number[] };
  return { s: p.s, e: p.e, d: [...p.d], ctor: x.constructor, proto: Object.getPrototypeOf(x), keys: Object.keys(x) };
};

describe('plainDecimal', () => {
  it('property: is the Decimal the string parser makes of formatPlainDecimal(int, decimals), part for part', () => {
    // integers of every length up to 2^53 (with runs of trailing zeros), decimals 0..MAX_DECIMALS
    const int = fc.oneof(
      fc.integer({ min: 0, max: 10_000_000 }),
      fc.maxSafeNat(),
      fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 0, max: 10 })).map(([m, z]) => m * 10 ** z),
    );
    fc.assert(
      fc.property(int, fc.integer({ min: 0, max: MAX_DECIMALS }), (n, decimals) => {
        const text = formatPlainDecimal(n, decimals);
        const made = plainDecimal(n, decimals);
        expect(parts(made)).toEqual(parts(new Decimal(text)));
        expect(made.toFixed()).toBe(new Decimal(text).toFixed());
      }),
      { numRuns: 5000 },
    );
  });

  it('lays out the words at each boundary of the base-1e7 digits', () => {
    for (const [n, dec] of [
      [1, 0],
      [9_999_999, 0],
      [10_000_000, 0],
      [1, 7],
      [1, 8],
      [12_345_678, 7],
      [3_000_000, 2],
      [3_000_001, 2],
      [1, 20],
      [2 ** 53 - 1, 20],
    ] as const) {
      expect(parts(plainDecimal(n, dec))).toEqual(parts(new Decimal(formatPlainDecimal(n, dec))));
    }
  });
});
