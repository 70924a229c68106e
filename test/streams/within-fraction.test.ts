import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Decimal } from '../../src/model/decimal.js';
import { estimate } from '../../src/model/decimal-estimate.js';
import { priceSum, sumWithin, within } from '../../src/streams/within-fraction.js';

/** The answer in plain decimal.js: |x − ref| ≤ ref × fraction. */
const exact = (x: Decimal, ref: Decimal, fraction: Decimal): boolean => x.minus(ref).abs().lte(ref.times(fraction));

/** A positive decimal of up to 15 significant digits, at magnitudes from 1e-8 to 1e30 (the lie was ~1e29). */
const price = fc.tuple(fc.bigInt({ min: 1n, max: 999_999_999_999_999n }), fc.integer({ min: -22, max: 16 })).map(([m, e]) => D(`${m}e${e}`));
const fraction = fc.integer({ min: 1, max: 9999 }).map((bp) => D(bp).div(10_000));

describe('within / sumWithin (decided on estimates away from the edge, exactly at it)', () => {
  it('at the edge the exact answer wins where the floats would guess wrong', () => {
    const ref = D(30_000);
    const tenth = D('0.1');
    // the float of 33000.00000000000001 is 33000, and 0.1 × 30000 in floats is just above 3000: "within" on floats alone
    expect(within(D('33000.00000000000001'), ref, tenth)).toBe(false);
    expect(within(D(33_000), ref, tenth)).toBe(true);
    expect(within(D('26999.99999999999999'), ref, tenth)).toBe(false);
    expect(within(D(27_000), ref, tenth)).toBe(true);
    // sums: (bid + ask) against (bid + ask), twice the mids 30000 and 33000
    const ref2 = priceSum(D(29_999), D(30_001));
    expect(sumWithin(priceSum(D(32_999), D('33001.00000000000002')), ref2, tenth, estimate(tenth))).toBe(false);
    expect(sumWithin(priceSum(D(32_999), D(33_001)), ref2, tenth, estimate(tenth))).toBe(true);
    // beyond what is estimated (1e300) it is decided exactly too
    expect(within(D('1e300'), ref, tenth)).toBe(false);
  });

  it('property (seeded): always the exact answer, for random values and for values right at the edge', () => {
    fc.assert(
      fc.property(price, price, fraction, (x, ref, f) => {
        expect(within(x, ref, f)).toBe(exact(x, ref, f));
        // right at the edge, and one unit of the 30th decimal place either side of it
        const edge = ref.times(D(1).plus(f));
        const tiny = D('1e-30');
        for (const y of [edge, edge.plus(tiny), edge.minus(tiny), ref.minus(ref.times(f)).plus(tiny), ref.minus(ref.times(f)).minus(tiny)]) {
          if (y.gt(0)) expect(within(y, ref, f)).toBe(exact(y, ref, f));
        }
      }),
      { seed: 17, numRuns: 3000 },
    );
    fc.assert(
      fc.property(price, price, price, price, fraction, (a, b, ra, rb, f) => {
        const got = sumWithin(priceSum(a, b), priceSum(ra, rb), f, estimate(f));
        expect(got).toBe(exact(a.plus(b), ra.plus(rb), f));
        const edge = ra.plus(rb).times(D(1).plus(f)).minus(a);
        if (edge.gt(0)) expect(sumWithin(priceSum(a, edge), priceSum(ra, rb), f, estimate(f))).toBe(true);
      }),
      { seed: 19, numRuns: 3000 },
    );
  });
});
