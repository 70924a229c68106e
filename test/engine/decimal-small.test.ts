import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/model/decimal.js';
import { decimalOfParts } from '../../src/model/decimal-parts.js';
import { dadd, dmul, dsub } from '../../src/model/decimal-small.js';

/** A Decimal's parts and class, as decimal.js keeps them (what every later operation reads). */
const parts = (x: Decimal) => {
  const p = x as unknown as { s: number; e: number; d: number[] | null };
  return { s: p.s, e: p.e, d: p.d === null ? null : [...p.d], ctor: x.constructor, proto: Object.getPrototypeOf(x), keys: Object.keys(x) };
};

/** Values of the small path and just past it: up to 17 digits (2^53 has 16), exponents -25 … 25, both signs. */
const small = fc.tuple(fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }), fc.integer({ min: -25, max: 25 })).map(([m, e]) => new Decimal(`${m}e${e}`));
/** As money is: a price or amount of up to 12 decimals, or a factor such as 0.9998. */
const money = fc.tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.integer({ min: 0, max: 12 })).map(([m, k]) => new Decimal(`${m}e-${k}`));
/** Everything else: long digit strings, zeros of both signs, far exponents, NaN and the infinities. */
const other = fc.oneof(
  fc.tuple(fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }), fc.integer({ min: -80, max: 40 })).map(([m, e]) => new Decimal(`${m}e${e}`)),
  fc.double({ noNaN: false }).map((x) => new Decimal(x)),
  fc.constantFrom('0', '-0', '1e-400', '9e400', '1e-9000000000000000', '9e9000000000000000', 'NaN', 'Infinity', '-Infinity').map((s) => new Decimal(s)),
);
const decimal = fc.oneof(small, money, money, other);

describe('small-value Decimal arithmetic (integers in doubles, parts built directly)', () => {
  it('property: dadd, dsub and dmul give decimal.js’s own result, part for part', () => {
    fc.assert(
      fc.property(decimal, decimal, (x, y) => {
        expect(parts(dadd(x, y))).toEqual(parts(x.plus(y)));
        expect(parts(dsub(x, y))).toEqual(parts(x.minus(y)));
        expect(parts(dmul(x, y))).toEqual(parts(x.times(y)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('property: at the edges: x − x, x + (−x), and products and sums either side of 2^53', () => {
    const nearLimit = fc.integer({ min: -3, max: 3 }).map((k) => 2 ** 53 + k);
    fc.assert(
      fc.property(decimal, nearLimit, fc.integer({ min: 2, max: 97 }), fc.integer({ min: -10, max: 10 }), (x, n, f, e) => {
        expect(parts(dsub(x, x))).toEqual(parts(x.minus(x)));
        expect(parts(dadd(x, x.neg()))).toEqual(parts(x.plus(x.neg())));
        const big = new Decimal(`${n}e${e}`);
        const one = new Decimal(`1e${e}`);
        expect(parts(dadd(big, one))).toEqual(parts(big.plus(one)));
        expect(parts(dsub(big, one))).toEqual(parts(big.minus(one)));
        // a sum just past 2^53 that a double cannot hold (2^53 + 1 + 2k is odd): it must not take the small path
        const k = n - 2 ** 53 + 3;
        const below = new Decimal(`${2 ** 53 - 1 - 2 * k}e${e}`);
        const rest = new Decimal(`${2 + 4 * k}e${e}`);
        expect(parts(dadd(below, rest))).toEqual(parts(below.plus(rest)));
        expect(parts(dsub(below.neg(), rest))).toEqual(parts(below.neg().minus(rest)));
        const a = new Decimal(`${Math.floor(n / f)}e${e}`);
        const b = new Decimal(f + 1);
        expect(parts(dmul(a, b))).toEqual(parts(a.times(b)));
      }),
      { numRuns: 5000 },
    );
  });

  it('property: decimalOfParts(sign, m, q) is the Decimal the parser makes of sign·m·10^q', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<1 | -1>(1, -1),
        fc.oneof(
          fc.integer({ min: 1, max: 10_000_000 }),
          fc.maxSafeNat().filter((m) => m > 0),
        ),
        fc.integer({ min: -40, max: 40 }),
        (sign, m, q) => {
          expect(parts(decimalOfParts(sign, m, q))).toEqual(parts(new Decimal(`${sign < 0 ? '-' : ''}${m}e${q}`)));
        },
      ),
      { numRuns: 10_000 },
    );
  });
});
