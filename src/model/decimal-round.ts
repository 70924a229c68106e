import type { Decimal } from './decimal-clone.js';
import { LOG_BASE, POW10, decimalOfParts, digitsOf, partsOf } from './decimal-parts.js';

const MAX = Number.MAX_SAFE_INTEGER;
/** Exponents well inside decimal.js's range and the doubles' (the values are money: nowhere near either end). */
const MAX_EXP = 300;

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
  const p = partsOf(x);
  const d = p.d;
  if (!d) return undefined;
  const n = d.length;
  const d0 = d[0]!;
  if (n > 3 || d0 === 0 || p.e > MAX_EXP || p.e < -MAX_EXP) return undefined;
  // the last word is never zero (decimal.js drops trailing zero words): its trailing zeros are the value's
  let last = d[n - 1]!;
  let zeros = 0;
  while (last % 10 === 0) {
    last /= 10;
    zeros += 1;
  }
  let m: number;
  if (n === 1) m = last;
  else {
    m = d0;
    for (let i = 1; i < n - 1; i++) m = m * 1e7 + d[i]!;
    m = m * POW10[LOG_BASE - zeros]! + last;
    if (m > MAX) return undefined;
  }
  const q = p.e - digitsOf(d0) + 1 - LOG_BASE * (n - 1) + zeros;
  const k = -q - dp;
  if (k <= 0) return x; // already on the places: decimal.js's result has the very same parts
  if (k > 22) return undefined;
  const unit = POW10[k]!;
  const r = m % unit;
  let t = (m - r) / unit;
  const s = p.s;
  if (r > 0) {
    if (mode === 0) t += 1;
    else if (mode === 2 && s > 0) t += 1;
    else if (mode === 3 && s < 0) t += 1;
    else if (mode === 4 && 2 * r >= unit) t += 1;
  }
  if (t === 0) return undefined;
  return decimalOfParts(s as 1 | -1, t, -dp);
}
