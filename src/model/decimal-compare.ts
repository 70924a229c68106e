import type { Decimal } from './decimal.js';

/** decimal.js keeps a value as sign `s`, base-10 exponent `e` and base-1e7 digit words `d` (documented, read-only). */
interface Parts {
  readonly s: number;
  readonly e: number;
  readonly d: readonly number[] | null;
}

/**
 * `a.cmp(b)` without its copy of `b`: decimal.js's comparison first runs `b` through the constructor, which slices
 * its digit array, so every `gt`/`lt`/`eq` allocates. This reads the same parts and answers exactly as
 * `comparedTo` does (NaN for NaN); anything unusual (±Infinity, an exponent outside the constructor's range, which
 * the copy would clamp) falls back to `a.cmp(b)`. For the engine's hot paths (runs on every snapshot and intent).
 */
export function cmp(a: Decimal, b: Decimal): number {
  const x = a as unknown as Parts;
  const y = b as unknown as Parts;
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
