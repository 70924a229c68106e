import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/model/decimal.js';
import { cmp, eq, gt, gte, lt, lte, lteProduct, maxOf, minOf } from '../../src/model/decimal-compare.js';

/** Decimals of every shape the engine meets: zeros of both signs, tiny and huge exponents, long digit strings. */
const decimal = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => new Decimal(n)),
  fc.tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: -45, max: 30 })).map(([m, e]) => new Decimal(`${m}e${e}`)),
  fc
    .constantFrom('0', '-0', '1', '-1', '0.1', '0.10000000000001', '1e-9000000000000000', '9e9000000000000000', 'NaN', 'Infinity', '-Infinity')
    .map((s) => new Decimal(s)),
  fc.double({ noNaN: false }).map((x) => new Decimal(x)),
);

describe('allocation-free Decimal comparisons', () => {
  it('answer exactly as decimal.js does', () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(Object.is(cmp(a, b), a.cmp(b))).toBe(true);
        expect(lt(a, b)).toBe(a.lt(b));
        expect(lte(a, b)).toBe(a.lte(b));
        expect(gt(a, b)).toBe(a.gt(b));
        expect(gte(a, b)).toBe(a.gte(b));
        expect(eq(a, b)).toBe(a.eq(b));
        expect(minOf(a, b)).toBe(a.lte(b) ? a : b);
        expect(maxOf(a, b)).toBe(a.gte(b) ? a : b);
      }),
      { numRuns: 5000 },
    );
  });

  it('compare a value with itself and with an equal copy as equal', () => {
    fc.assert(
      fc.property(decimal, (a) => {
        expect(Object.is(cmp(a, a), a.cmp(a))).toBe(true);
        expect(Object.is(cmp(a, new Decimal(a.toString())), a.cmp(new Decimal(a.toString())))).toBe(true);
      }),
    );
  });

  it('lteProduct answers as the product compared, at the powers of ten where the exponents alone decide', () => {
    // near powers of ten: 10^k, 10^k - 1 ulp, 10^k + 1 ulp, and the ones the exponents bound (9.99..., 1.00...)
    const nearPower = fc
      .tuple(fc.integer({ min: -12, max: 12 }), fc.constantFrom('1', '9.999999999999999999', '1.000000000000000001', '5', '9.9', '1.1'))
      .map(([k, m]) => new Decimal(`${m}e${k}`));
    const any = fc.oneof(decimal, nearPower);
    fc.assert(
      fc.property(any, any, any, (x0, y, z) => {
        const x = x0.isNaN() ? x0 : x0.abs();
        expect(lteProduct(x, y, z)).toBe(lte(x, y.abs().times(z)));
      }),
      { numRuns: 20000 },
    );
  });
});
