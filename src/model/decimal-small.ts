import type { Decimal } from './decimal-clone.js';
import { LOG_BASE, POW10, decimalOfParts, digitsOf, partsOf } from './decimal-parts.js';

/**
 * Exact sums, differences and products of "small" Decimals (at most 15 significant digits, as prices, amounts and
 * quoting factors are) done on integers held in doubles, with the result built straight into decimal.js's parts.
 *
 * decimal.js copies its argument through the constructor on every operation and works digit word by digit word at
 * 60 digits of precision; a strategy's per-snapshot maths (a mid, two quotes, a sum of levels) pays that several
 * times a second per market, and a backtest 86,400 times a day. Here x = sign × m × 10^q with m a safe integer:
 * aligning, adding and multiplying such integers is exact while the results stay below 2^53, which is checked; the
 * result then has at most 16 digits, so decimal.js would not round it either. Anything else (more digits, a zero,
 * NaN, ±Infinity, an exponent out of range, a result at or past 2^53) takes decimal.js's own operation.
 *
 * Same value, same parts (a Decimal's parts are canonical for its value): the property tests in
 * test/engine/decimal-small.test.ts hold every result to decimal.js's, part for part.
 */

const MAX = Number.MAX_SAFE_INTEGER;
/** Exponents well inside decimal.js's range and the doubles' (the values are money: nowhere near either end). */
const MAX_EXP = 300;

// The last split value (no allocation per operand): sign × M × 10^Q.
let M = 0;
let Q = 0;
let S = 1;

/** True for a zero of either sign (not for NaN). */
function isZero(x: Decimal): boolean {
  const d = partsOf(x).d;
  return d !== null && d[0] === 0;
}

/** Reads x into S, M, Q (M without trailing zeros); false when x is not a small nonzero finite value. */
function split(x: Decimal): boolean {
  const p = partsOf(x);
  const d = p.d;
  if (!d) return false;
  const n = d.length;
  const d0 = d[0]!;
  if (n > 3 || d0 === 0 || p.e > MAX_EXP || p.e < -MAX_EXP) return false;
  // the last word is never zero (decimal.js drops trailing zero words): its trailing zeros are the value's
  let last = d[n - 1]!;
  let zeros = 0;
  while (last % 10 === 0) {
    last /= 10;
    zeros += 1;
  }
  let m: number;
  if (n === 1) {
    m = last;
  } else {
    m = d0;
    for (let i = 1; i < n - 1; i++) m = m * 1e7 + d[i]!;
    m = m * POW10[LOG_BASE - zeros]! + last;
    if (m > MAX) return false;
  }
  M = m;
  Q = p.e - digitsOf(d0) + 1 - LOG_BASE * (n - 1) + zeros;
  S = p.s;
  return true;
}

/** x + ySign × y on the small path, or undefined when it does not apply. */
function smallSum(x: Decimal, y: Decimal, ySign: 1 | -1): Decimal | undefined {
  // 0 ± y and x ± 0 (a running sum starts at ZERO): the other value itself, sign applied
  if (isZero(x)) return split(y) ? decimalOfParts((ySign * S) as 1 | -1, M, Q) : undefined;
  if (isZero(y)) return split(x) ? decimalOfParts(S as 1 | -1, M, Q) : undefined;
  if (!split(x)) return undefined;
  let a = S * M;
  const qx = Q;
  if (!split(y)) return undefined;
  let b = ySign * S * M;
  let q = Q;
  if (qx > q) {
    if (qx - q > 22) return undefined;
    a *= POW10[qx - q]!;
  } else if (q > qx) {
    if (q - qx > 22) return undefined;
    b *= POW10[q - qx]!;
    q = qx;
  }
  // a product past 2^53 is not exact, but it is past 2^53 (rounding is monotonic): refused here
  if (a > MAX || a < -MAX || b > MAX || b < -MAX) return undefined;
  const sum = a + b;
  if (sum === 0 || sum > MAX || sum < -MAX) return undefined;
  return sum > 0 ? decimalOfParts(1, sum, q) : decimalOfParts(-1, -sum, q);
}

/** `x.plus(y)`, the same Decimal, on integers when both are small. */
export function dadd(x: Decimal, y: Decimal): Decimal {
  return smallSum(x, y, 1) ?? x.plus(y);
}

/** `x.minus(y)`, the same Decimal, on integers when both are small. */
export function dsub(x: Decimal, y: Decimal): Decimal {
  return smallSum(x, y, -1) ?? x.minus(y);
}

/** `x.times(y)`, the same Decimal, on integers when both are small and the product stays below 2^53. */
export function dmul(x: Decimal, y: Decimal): Decimal {
  if (split(x)) {
    const mx = M;
    const qx = Q;
    const sx = S;
    if (split(y)) {
      const m = mx * M;
      if (m <= MAX) return decimalOfParts(sx === S ? 1 : -1, m, qx + Q);
    }
  }
  return x.times(y);
}

/**
 * `x.toDecimalPlaces(dp, mode)`, the same Decimal, for a "small" x (at most 15-16 significant digits, below 2^53 as an
 * integer: prices and amounts) and the rounding modes an order's quantization uses (0 UP, 1 DOWN, 2 CEIL, 3 FLOOR,
 * 4 HALF_UP). x = sign × m × 10^q with m a safe integer: dropping k digits is m = t × 10^k + r, exact in doubles, and
 * the mode decides from r and the sign whether t steps away from zero; the result's parts are built as decimal.js
 * lays them (decimal-parts.ts); x itself when it has no more places than dp (decimal.js's result has the same parts:
 * only the identity differs, and Decimals are immutable). Undefined for anything else (more digits, zero, NaN, ±Infinity, an exponent out of
 * range, another mode, a result of zero, whose sign decimal.js decides): the caller takes decimal.js's own operation.
 * Every result is held to decimal.js's, part for part, by test/model/decimal-round.test.ts.
 */
export function roundToPlacesSmall(x: Decimal, dp: number, mode: number): Decimal | undefined {
  if (mode > 4 || !Number.isInteger(dp) || dp < 0) return undefined;
  if (!split(x)) return undefined;
  const m = M;
  const q = Q;
  const s = S;
  const k = -q - dp;
  if (k <= 0) return x; // already on the places: decimal.js's result has the very same parts
  if (k > 22) return undefined;
  const unit = POW10[k]!;
  const r = m % unit;
  let t = (m - r) / unit;
  if (r > 0) {
    if (mode === 0) t += 1;
    else if (mode === 2 && s > 0) t += 1;
    else if (mode === 3 && s < 0) t += 1;
    else if (mode === 4 && 2 * r >= unit) t += 1;
  }
  if (t === 0) return undefined;
  return decimalOfParts(s as 1 | -1, t, -dp);
}
