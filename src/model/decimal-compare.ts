import type { Decimal } from './decimal-clone.js';
import { partsOf } from './decimal-parts.js';

/**
 * `a.cmp(b)` without its copy of `b`: decimal.js's comparison first runs `b` through the constructor, which slices
 * its digit array, so every `gt`/`lt`/`eq` allocates. This reads the same parts and answers exactly as
 * `comparedTo` does (NaN for NaN); anything unusual (±Infinity, an exponent outside the constructor's range, which
 * the copy would clamp) falls back to `a.cmp(b)`. For the engine's hot paths (runs on every snapshot and intent).
 */
export function cmp(a: Decimal, b: Decimal): number {
  const x = partsOf(a);
  const y = partsOf(b);
  const xd = x.d;
  const yd = y.d;
  const ctor = a.constructor as unknown as { readonly minE: number; readonly maxE: number };
  if (!xd || !yd || y.e > ctor.maxE || y.e < ctor.minE) return a.cmp(b);
  const xs = x.s;
  const ys = y.s;
  // Either zero?
  if (!xd[0] || !yd[0]) return xd[0] ? xs : yd[0] ? -ys : 0;
  if (xs !== ys) return xs;
  const neg = xs < 0;
  if (x.e !== y.e) return x.e > y.e !== neg ? 1 : -1;
  const xdL = xd.length;
  const ydL = yd.length;
  for (let i = 0, j = xdL < ydL ? xdL : ydL; i < j; ++i) {
    if (xd[i] !== yd[i]) return (xd[i] as number) > (yd[i] as number) !== neg ? 1 : -1;
  }
  return xdL === ydL ? 0 : xdL > ydL !== neg ? 1 : -1;
}

/** `a.lt(b)` without allocating. */
export const lt = (a: Decimal, b: Decimal): boolean => cmp(a, b) < 0;
/** `a.lte(b)` without allocating. */
export const lte = (a: Decimal, b: Decimal): boolean => {
  const k = cmp(a, b);
  return k < 0 || k === 0;
};
/** `a.gt(b)` without allocating. */
export const gt = (a: Decimal, b: Decimal): boolean => cmp(a, b) > 0;
/** `a.gte(b)` without allocating. */
export const gte = (a: Decimal, b: Decimal): boolean => {
  const k = cmp(a, b);
  return k > 0 || k === 0;
};
/** `a.eq(b)` without allocating. */
export const eq = (a: Decimal, b: Decimal): boolean => cmp(a, b) === 0;

/** `dmin` (a when a <= b, else b) without allocating. */
export const minOf = (a: Decimal, b: Decimal): Decimal => (lte(a, b) ? a : b);
/** `dmax` (a when a >= b, else b) without allocating. */
export const maxOf = (a: Decimal, b: Decimal): Decimal => (gte(a, b) ? a : b);

/**
 * `lte(x, |y| × z)` for a non-negative `x` (a tolerance test: "is the difference within this fraction of the value?"),
 * mostly without the product: when the base-10 exponents alone settle it. |y| × z lies in [10^(ey+ez), 10^(ey+ez+2)]
 * (rounded to the precision, it cannot leave that range), and x in [10^ex, 10^(ex+1)), so ex + 1 <= ey + ez means
 * x is below it and ex >= ey + ez + 3 means above. Otherwise, and for anything unusual (zero, negative, not finite,
 * huge exponents), it multiplies and compares exactly as before. For the strategy helpers' per-snapshot path.
 */
export function lteProduct(x: Decimal, y: Decimal, z: Decimal): boolean {
  const a = partsOf(x);
  const b = partsOf(y);
  const c = partsOf(z);
  if (a.d && b.d && c.d && a.d[0] && b.d[0] && c.d[0] && a.s > 0 && c.s > 0 && Math.abs(b.e) < 1e6 && Math.abs(c.e) < 1e6 && Math.abs(a.e) < 1e6) {
    const e = b.e + c.e;
    if (a.e + 1 <= e) return true;
    if (a.e >= e + 3) return false;
  }
  return lte(x, (y.isNegative() ? y.neg() : y).times(z));
}
