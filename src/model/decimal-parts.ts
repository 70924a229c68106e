import { Decimal } from './decimal-clone.js';

/**
 * decimal.js's documented representation, shared by the modules that read or build Decimals without going through
 * text (decimal-compare, decimal-estimate, decimal-small, the recording cache): sign `s`, base-10 exponent `e` of the
 * first digit, and the digits in base-1e7 words `d` (the first word holds (e mod 7) + 1 digits, every further word 7,
 * the last padded with zeros; no trailing zero word; `null` for NaN and ±Infinity).
 */
export interface DecimalParts {
  s: number;
  e: number;
  d: number[] | null;
}

/** The parts of `x`, read-only (a cast: decimal.js keeps them as plain properties). */
export function partsOf(x: Decimal): Readonly<DecimalParts> {
  return x;
}

/** Digits per word (decimal.js's LOG_BASE). */
export const LOG_BASE = 7;

/** 10^k as an exact double, k = 0 … 22. */
export const POW10: readonly number[] = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Digits of a first word (1 … 9,999,999). */
export function digitsOf(w: number): number {
  return w < 1e4 ? (w < 100 ? (w < 10 ? 1 : 2) : w < 1000 ? 3 : 4) : w < 1e6 ? (w < 1e5 ? 5 : 6) : 7;
}

/**
 * n itself, held as a small integer when it is one. V8 keeps a whole number worked out through a double (a -0 on the
 * way, a double operand) as a double, and one double stored as a Decimal's `e` turns that field from small integer to
 * double in every Decimal's map, for the whole process: all of them deprecated, the optimised code that read them
 * thrown away mid-replay. decimal.js's own exponents are small integers. (-0 comes back as 0: an exponent's sign of
 * zero means nothing to decimal.js.)
 */
export function smallInt(n: number): number {
  const i = n | 0;
  return i === n ? i : n;
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
  const parts = x as unknown as DecimalParts;
  const d = parts.d!; // [1]: reused for the words
  // Each word is below 1e7, so `| 0` leaves its value alone; it keeps the word a small integer. Worked out in
  // doubles (POW10 holds doubles), a word would be stored as a double and turn `d` into an array of doubles, unlike
  // every array decimal.js makes: its operations (and partsOf's readers) would then meet two kinds of `d` and be
  // optimised for both, or thrown away when the second turns up.
  if (rest <= 0) {
    d[0] = (m * POW10[-rest]!) | 0;
  } else {
    let low = m % POW10[rest]!;
    d[0] = ((m - low) / POW10[rest]!) | 0;
    while (rest > LOG_BASE) {
      rest -= LOG_BASE;
      const lower = low % POW10[rest]!;
      d.push(((low - lower) / POW10[rest]!) | 0);
      low = lower;
    }
    d.push((low * POW10[LOG_BASE - rest]!) | 0);
    while (d[d.length - 1] === 0) d.pop();
  }
  parts.s = sign;
  parts.e = smallInt(e);
  return x;
}
