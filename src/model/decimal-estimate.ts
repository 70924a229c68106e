import type { Decimal } from './decimal-clone.js';
import { maxOf, minOf } from './decimal-compare.js';
import { digitsOf, partsOf } from './decimal-parts.js';
import { dadd, dsub } from './decimal-small.js';

/**
 * A Decimal's value as a double with a known error bound, read from its parts (sign `s`, base-10 exponent `e`,
 * base-1e7 digit words `d`: decimal.js's documented representation) without formatting it to text.
 *
 * It lets a per-snapshot test skip Decimal arithmetic when the answer is not close: the test decides on the
 * estimates when they are further apart than their error bounds, and does the exact arithmetic otherwise, so the
 * answer is always the exact one. Money never becomes a float: only "which side of the line" is read from one.
 */

/**
 * Bound on |estimate(x) − x| / |x|. The words after the fourth are dropped (below 1e-21 of the value), the words kept
 * are summed and scaled in at most six correctly rounded double operations (each within 2^-53 ≈ 1.1e-16), and 10^k
 * comes from a table of correctly rounded powers: about 1e-15 in all, taken as 1e-13 to leave a wide margin.
 */
export const ESTIMATE_REL_ERROR = 1e-13;

/** Powers of ten 10^-300 … 10^300, each the double nearest to it (JavaScript's parser rounds correctly). */
const POW10_WIDE = Array.from({ length: 601 }, (_, i) => Number(`1e${i - 300}`));

/**
 * `x` as a double within ESTIMATE_REL_ERROR of it (0 for zero), or NaN for what it does not estimate: NaN,
 * ±Infinity, and magnitudes outside about 10^±290. Callers treat NaN as "decide exactly".
 */
export function estimate(x: Decimal): number {
  const p = partsOf(x);
  const d = p.d;
  if (!d) return Number.NaN;
  const d0 = d[0]!;
  if (d0 === 0) return 0;
  const k = p.e - digitsOf(d0) + 301; // index of 10^(e − digits(d0) + 1), the first word's unit
  if (k < 10 || k > 590) return Number.NaN;
  const n = d.length;
  let m = d0;
  if (n > 1) m += d[1]! * 1e-7;
  if (n > 2) m += d[2]! * 1e-14;
  if (n > 3) m += d[3]! * 1e-21;
  return p.s * m * POW10_WIDE[k]!;
}

/**
 * THE test of a difference worked out in estimates: 1 when it is plainly above zero, −1 plainly below, 0 when it is
 * too close to zero to tell (or NaN: a value not estimated), and the caller then does the exact Decimal arithmetic.
 * `diff` is a double computed from estimates of the figures whose exact difference is asked about; `magnitude` bounds
 * the figures it sums, Σ|figure| (their estimates' absolute values: near enough, see below); `terms` counts its
 * error terms, each at most ESTIMATE_REL_ERROR × magnitude:
 * - one for each estimate a figure multiplies: every figure is within REL of itself when it is one estimate, within
 *   about m × REL when it is a product of m of them, so the errors of all the figures together are within
 *   m × REL × Σ|figure|;
 * - one for the double operations' rounding (each within 2^-53 of its result, which is at most the magnitude), as long
 *   as there are fewer than REL / 2^-52 ≈ 450 of them; a caller summing an unbounded number counts one per operation.
 * REL is about 100 times the estimates' real bound (see above), so the REL / (1 − REL) that relates the estimates'
 * magnitudes to the values' and the rounding of the margin itself are far inside it. When the difference is further
 * from zero than that error, its sign is the exact difference's.
 */
export function plainSign(diff: number, magnitude: number, terms: number): -1 | 0 | 1 {
  const margin = terms * ESTIMATE_REL_ERROR * magnitude;
  return diff > margin ? 1 : diff < -margin ? -1 : 0;
}

/**
 * Whether the estimates show that x − (y + zSign × z) has the sign `side` (1: above zero, −1: below). Two error terms:
 * the three estimates' and the two subtractions' rounding. False when they cannot tell: the caller then does the exact
 * arithmetic.
 */
function plainly(x: Decimal, y: Decimal, zSign: 1 | -1, z: Decimal, side: 1 | -1): boolean {
  const xf = estimate(x);
  const yf = estimate(y);
  const zf = estimate(z);
  return plainSign(xf - yf - zSign * zf, Math.abs(xf) + Math.abs(yf) + Math.abs(zf), 2) === side;
}

/**
 * `minOf(x, dsub(y, z))`: the difference is made only when the estimates cannot show that x is the smaller (a quote
 * held one price step behind the opposite touch: it is almost always well behind it already). Same value, always.
 */
export function minOfDifference(x: Decimal, y: Decimal, z: Decimal): Decimal {
  return plainly(x, y, -1, z, -1) ? x : minOf(x, dsub(y, z));
}

/** `maxOf(x, dadd(y, z))`, the sum made only when the estimates cannot show that x is the larger. Same value, always. */
export function maxOfSum(x: Decimal, y: Decimal, z: Decimal): Decimal {
  return plainly(x, y, 1, z, 1) ? x : maxOf(x, dadd(y, z));
}
