import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/model/decimal.js';
import { lt, lteProduct, maxOf, minOf } from '../../src/model/decimal-compare.js';
import { estimate, maxOfSum, minOfDifference, plainSign } from '../../src/model/decimal-estimate.js';
import { withinTolerance } from '../../src/strategy/target-orders.js';

/** Decimals of every shape: long digit strings, tiny and huge exponents, zeros, the values estimate refuses. */
const decimal = fc.oneof(
  fc.tuple(fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }), fc.integer({ min: -80, max: 40 })).map(([m, e]) => new Decimal(`${m}e${e}`)),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => new Decimal(n)),
  fc.double({ noNaN: false }).map((x) => new Decimal(x)),
  fc.constantFrom('0', '-0', '1e-400', '9e400', '1e-9000000000000000', 'NaN', 'Infinity', '-Infinity').map((s) => new Decimal(s)),
);
/** Prices and amounts as a venue has them: a few to a dozen digits, up to 12 decimals. */
const price = fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 12 })).map(([m, k]) => new Decimal(`${m}e-${k}`));
/** Positive tolerances and steps as configured ("0.0002", "0.5", "0.01"). */
const fraction = fc.tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 0, max: 10 })).map(([m, k]) => new Decimal(`${m}e-${k}`));
/** A relative nudge: none, or a few units in the last of 13 to 60 digits, either way. */
const nudge = fc.oneof(
  fc.constant(0),
  fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: 13, max: 60 })).map(([u, k]) => u * 10 ** -k),
);

describe('estimate: a Decimal as a double within the stated bound', () => {
  it('property: within 1e-14 of the value (the bound it states is 1e-13); NaN only for what is not finite or beyond 10^±280', () => {
    fc.assert(
      fc.property(decimal, (x) => {
        const f = estimate(x);
        if (!x.isFinite()) {
          expect(f).toBeNaN();
          return;
        }
        if (Number.isNaN(f)) {
          // refused only far out of the range money lives in
          expect(x.abs().gt('1e280') || x.abs().lt('1e-280')).toBe(true);
          return;
        }
        if (x.isZero()) {
          expect(f).toBe(0);
          return;
        }
        expect(Number.isFinite(f)).toBe(true);
        // the double's shortest text is within half an ulp (1.1e-16) of it
        const err = new Decimal(String(f)).minus(x).abs();
        expect(err.lte(x.abs().times('1e-14'))).toBe(true);
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('minOfDifference / maxOfSum: dmin(x, y − z) and dmax(x, y + z), the arithmetic skipped when the estimates settle it', () => {
  it('property: the same value (and the same object when x is the answer) as the arithmetic, at and around the ties', () => {
    // x anywhere, or at y − z (resp. y + z) nudged by a few units of its 13th to 60th digit
    const cases = fc.tuple(decimal, decimal, decimal, fc.boolean(), nudge);
    fc.assert(
      fc.property(cases, ([x0, y, z, nearTie, u]) => {
        for (const [mine, exact, tie] of [
          [minOfDifference, (a: Decimal, b: Decimal, c: Decimal) => minOf(a, b.minus(c)), y.minus(z)],
          [maxOfSum, (a: Decimal, b: Decimal, c: Decimal) => maxOf(a, b.plus(c)), y.plus(z)],
        ] as const) {
          const x = nearTie && tie.isFinite() ? tie.plus(tie.abs().times(u)) : x0;
          const want = exact(x, y, z);
          const got = mine(x, y, z);
          expect(got.isNaN() ? want.isNaN() : got.eq(want)).toBe(true);
          expect(got === x).toBe(want === x);
        }
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('withinTolerance: decided on estimates when they settle it, always the exact answer', () => {
  const exactly = (have: Decimal, want: Decimal, tol: Decimal, step: Decimal): boolean => {
    if (have.eq(want) && !tol.isNegative()) return true;
    const diff = have.minus(want).abs();
    return (step.gt(0) && lt(diff, step)) || lteProduct(diff, want, tol);
  };

  it('property: as the arithmetic, at the tolerance and step boundaries (nudged) and anywhere', () => {
    const boundary = fc.constantFrom('tolerance', 'step', 'none');
    fc.assert(
      fc.property(price, fraction, fc.oneof(fraction, fc.constant(new Decimal(0))), boundary, fc.boolean(), nudge, (want, tol, step, at, below, u) => {
        const edge = at === 'tolerance' ? want.times(tol) : at === 'step' ? step : want.times(tol).times(u * 1e12 + 1);
        const offset = edge.plus(edge.times(u));
        const have = below ? want.minus(offset) : want.plus(offset);
        expect(withinTolerance(have, want, tol, step)).toBe(exactly(have, want, tol, step));
      }),
      { numRuns: 20_000 },
    );
  });

  it('property: as the arithmetic for values of every shape (zero, negative or odd tolerances and steps included)', () => {
    fc.assert(
      fc.property(decimal, decimal, decimal, decimal, (have, want, tol, step) => {
        expect(withinTolerance(have, want, tol, step)).toBe(exactly(have, want, tol, step));
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('plainSign: the sign of a difference in estimates, when it is plain', () => {
  /** `x` nudged by a few units of its 13th to 60th digit (or not), or anywhere: near the edge and far from it. */
  const near = (x: Decimal, far: Decimal, nearEdge: boolean, u: number): Decimal => (nearEdge && x.isFinite() ? x.plus(x.abs().times(u)) : far);
  const agrees = (sign: -1 | 0 | 1, exact: Decimal): boolean => (sign === 0 ? true : exact.isFinite() && exact.cmp(0) === sign);

  it('property: when it says plainly, the exact comparison agrees (differences, products against a limit, long sums)', () => {
    fc.assert(
      fc.property(decimal, decimal, decimal, fc.array(price, { maxLength: 30 }), fc.boolean(), nudge, (x, y0, z, locks, nearEdge, u) => {
        // x − y, two terms (decimal-estimate's minOfDifference / maxOfSum, sane-books' crossed test)
        const y = near(x, y0, nearEdge, u);
        const [xf, yf] = [estimate(x), estimate(y)];
        expect(agrees(plainSign(xf - yf, Math.abs(xf) + Math.abs(yf), 2), x.minus(y))).toBe(true);
        // x × z − limit, four terms (total-limits)
        const product = x.times(z);
        const limit = near(product, y0, nearEdge, u);
        const [pf, lf] = [xf * estimate(z), estimate(limit)];
        expect(agrees(plainSign(pf - lf, Math.abs(pf) + Math.abs(lf), 4), product.minus(limit))).toBe(true);
        // available − Σ locks − need, 8 terms and one per subtraction (lazy-free-funds)
        const sum = locks.reduce((a, l) => a.minus(l), x.abs());
        const need = near(sum, y0.abs(), nearEdge, u);
        let have = estimate(x.abs());
        let size = Math.abs(have);
        for (const l of locks) {
          const lf2 = estimate(l);
          have -= lf2;
          size += lf2;
        }
        const nf = estimate(need);
        expect(agrees(plainSign(have - nf, size + Math.abs(nf), 8 + locks.length + 1), sum.minus(need))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('property: figures a millionth apart or more are always decided, and NaN is never decided', () => {
    fc.assert(
      fc.property(price, fc.integer({ min: 1, max: 10 ** 6 }), fc.boolean(), (x, k, above) => {
        const y = x.times(new Decimal(1).plus(new Decimal(k).times(above ? '1e-6' : '-1e-6')));
        const [xf, yf] = [estimate(x), estimate(y)];
        expect(plainSign(xf - yf, Math.abs(xf) + Math.abs(yf), 8)).toBe(above ? -1 : 1);
        expect(plainSign(Number.NaN, Math.abs(xf), 2)).toBe(0);
        expect(plainSign(xf, Number.NaN, 2)).toBe(0);
      }),
      { numRuns: 2_000 },
    );
  });
});
