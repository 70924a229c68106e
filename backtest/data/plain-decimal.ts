/**
 * Plain decimal strings ("30000.50", "0.001", "12") as an exact integer plus a count of decimals, and back,
 * for the recording cache (./recording-cache.ts). Exactness is checked by round trip: a string is only
 * accepted when formatting its integer gives back the very same string, so leading zeros, signs,
 * exponents, trailing dots or integers beyond 2^53 are refused (the cache then keeps the file as text).
 */

import { Decimal } from '../../src/model/decimal.js';
import { POW10, decimalOfParts } from '../../src/model/decimal-parts.js';

export { POW10 };

/** Most decimals a cached value may carry (POW10 is exact up to 22; a byte stores it). */
export const MAX_DECIMALS = 20;

/** Formats `int` (a non-negative safe integer) with `decimals` digits after the point: (1050, 2) → "10.50". */
export function formatPlainDecimal(int: number, decimals: number): string {
  const s = String(int);
  if (decimals === 0) return s;
  const padded = s.length > decimals ? s : '0'.repeat(decimals + 1 - s.length) + s;
  return `${padded.slice(0, padded.length - decimals)}.${padded.slice(padded.length - decimals)}`;
}

/**
 * The integer and decimal count of a plain decimal string, written into `out` ([int, decimals]); false when the
 * string has no exact representation that formats back to itself (`formatPlainDecimal(int, decimals) === text`):
 * digits with at most one inner point, no leading zero before another digit, at most MAX_DECIMALS decimals, and
 * an integer below 2^53 (accumulated digit by digit, exact while it stays below 2^53).
 */
export function parsePlainDecimal(text: string, out: [number, number]): boolean {
  const n = text.length;
  if (n === 0) return false;
  let int = 0;
  let dot = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (dot >= 0 || i === 0 || i === n - 1) return false;
      dot = i;
      continue;
    }
    if (c < 48 || c > 57) return false;
    int = int * 10 + (c - 48);
    if (int > Number.MAX_SAFE_INTEGER) return false;
  }
  // "0", "0.5" but not "05" or "00.5"
  if (text.charCodeAt(0) === 48 && n > 1 && dot !== 1) return false;
  const decimals = dot < 0 ? 0 : n - dot - 1;
  if (decimals > MAX_DECIMALS) return false;
  out[0] = int;
  out[1] = decimals;
  return true;
}

/**
 * Integer ticks of the value `int / 10^decimals`: the same number `priceToTicks(text, scale)` gives for the
 * string it came from. `int` and 10^decimals are exact doubles and IEEE division rounds correctly, so the
 * quotient is the double nearest the decimal value, which is what `Number(text)` parses to.
 */
export function ticksOf(int: number, decimals: number, scale: number): number {
  return Math.round((int / POW10[decimals]!) * scale);
}

/**
 * The Decimal of `int / 10^decimals` (`int` a non-negative safe integer, as the cache stores them): the very value
 * `new Decimal(formatPlainDecimal(int, decimals))` makes, built without formatting and re-parsing the text (a price
 * and an amount are read off the cache for every level a strategy or the fill model looks at, every snapshot).
 * decimalOfParts writes decimal.js's documented parts exactly as its string parser lays them out; the property test
 * in test/backtest/plain-decimal.test.ts holds it to the parser.
 */
export function plainDecimal(int: number, decimals: number): Decimal {
  return int === 0 ? new Decimal(0) : decimalOfParts(1, int, -decimals);
}
