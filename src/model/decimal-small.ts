import { Decimal } from './decimal.js';

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

/** decimal.js's documented representation: sign, base-10 exponent of the first digit, base-1e7 words. */
interface Parts {
  s: number;
  e: number;
  d: number[] | null;
}

const LOG_BASE = 7;
const MAX = Number.MAX_SAFE_INTEGER;
/** 10^k, exact, k = 0 … 22. */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Exponents well inside decimal.js's range and the doubles' (the values are money: nowhere near either end). */
const MAX_EXP = 300;

// The last split value (no allocation per operand): sign × M × 10^Q.
let M = 0;
let Q = 0;
let S = 1;

/** Digits of a first word (1 … 9,999,999). */
function digitsOf(w: number): number {
  return w < 1e4 ? (w < 100 ? (w < 10 ? 1 : 2) : w < 1000 ? 3 : 4) : w < 1e6 ? (w < 1e5 ? 5 : 6) : 7;
}

/** True for a zero of either sign (not for NaN). */
function isZero(x: Decimal): boolean {
  const d = (x as unknown as Parts).d;
  return d !== null && d[0] === 0;
}

/** Reads x into S, M, Q (M without trailing zeros); false when x is not a small nonzero finite value. */
function split(x: Decimal): boolean {
  const p = x as unknown as Parts;
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

/**
 * The Decimal sign × m × 10^q (m a positive safe integer), with its parts laid out as decimal.js lays them: the
 * first word holds (e mod 7) + 1 digits, every further word 7, the last padded with zeros, no trailing zero word.
 * Integer arithmetic only: a remainder by an exact power of ten is exact, and so is the division of what is left.
 */
export function decimalOfParts(sign: 1 | -1, m: number, q: number): Decimal {
  let len = 1;
  while (len < 16 && m >= POW10[len]!) len++;
  const e = len - 1 + q;
  // digits of m after the first word (negative: m ends inside the first word)
  let rest = len - ((((e % LOG_BASE) + LOG_BASE) % LOG_BASE) + 1);
  const x = new Decimal(1);
  const parts = x as unknown as Parts;
  const d = parts.d!; // [1]: reused for the words
  if (rest <= 0) {
    d[0] = m * POW10[-rest]!;
  } else {
    let low = m % POW10[rest]!;
    d[0] = (m - low) / POW10[rest]!;
    while (rest > LOG_BASE) {
      rest -= LOG_BASE;
      const lower = low % POW10[rest]!;
      d.push((low - lower) / POW10[rest]!);
      low = lower;
    }
    d.push(low * POW10[LOG_BASE - rest]!);
    while (d[d.length - 1] === 0) d.pop();
  }
  parts.s = sign;
  parts.e = e;
  return x;
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
