import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/model/decimal.js';
import { roundToPlacesSmall } from '../../src/model/decimal-small.js';

/** A Decimal's parts and class, as decimal.js keeps them (what every later operation reads). */
const parts = (x: Decimal) => {
  const p = x as unknown as { s: number; e: number; d: number[] | null };
  return { s: p.s, e: p.e, d: p.d === null ? null : [...p.d], ctor: x.constructor, proto: Object.getPrototypeOf(x), keys: Object.keys(x) };
};

/** Values of the small path and just past it: up to 17 digits (2^53 has 16), exponents -25 … 25, both signs. */
const small = fc.tuple(fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }), fc.integer({ min: -25, max: 25 })).map(([m, e]) => new Decimal(`${m}e${e}`));
/** As prices are: up to 12 decimals, and products of two such (a mid times a quoting factor). */
const money = fc.tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.integer({ min: 0, max: 12 })).map(([m, k]) => new Decimal(`${m}e-${k}`));
const products = fc.tuple(money, money).map(([a, b]) => a.times(b));
/** Ties and near-ties: ...5, ...49999, ...50001 at the dropped places. */
const ties = fc
  .tuple(fc.bigInt({ min: -(10n ** 10n), max: 10n ** 10n }), fc.constantFrom('5', '49999', '50001', '0001', '9999'), fc.integer({ min: 0, max: 8 }))
  .map(([m, tail, k]) => new Decimal(`${m}${tail}e-${k + tail.length}`));
const other = fc.oneof(
  fc.tuple(fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }), fc.integer({ min: -80, max: 40 })).map(([m, e]) => new Decimal(`${m}e${e}`)),
  fc.constantFrom('0', '-0', '1e-400', 'NaN', 'Infinity', '-Infinity', '0.004', '-0.004', '0.005', '-0.005').map((s) => new Decimal(s)),
);
const decimal = fc.oneof(small, money, products, ties, ties, other);

describe('roundToPlacesSmall', () => {
  it('property: gives decimal.js’s toDecimalPlaces, part for part, for every mode it takes (and declines the rest)', () => {
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 8 }), (x, dp, mode) => {
        const fast = roundToPlacesSmall(x, dp, mode);
        if (mode > 4) expect(fast).toBeUndefined();
        if (fast !== undefined) expect(parts(fast)).toEqual(parts(x.toDecimalPlaces(dp, mode as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('takes the usual cases: a quote price rounded to the price step, each way', () => {
    const quote = new Decimal('37012.3456789012');
    for (const mode of [0, 1, 2, 3, 4] as const) {
      const fast = roundToPlacesSmall(quote, 2, mode);
      expect(fast).toBeDefined();
      expect(parts(fast!)).toEqual(parts(quote.toDecimalPlaces(2, mode)));
      expect(parts(roundToPlacesSmall(quote.neg(), 2, mode)!)).toEqual(parts(quote.neg().toDecimalPlaces(2, mode)));
    }
  });
});
