import { Decimal } from './decimal-clone.js';
import { maxOf, minOf } from './decimal-compare.js';

export { Decimal } from './decimal-clone.js';

export type DecimalInput = Decimal | string | number;

/** Shorthand constructor: `D('0.01')`. */
export function D(value: DecimalInput): Decimal {
  return value instanceof Decimal ? value : new Decimal(value);
}

export const ZERO: Decimal = new Decimal(0);

/** True when `text` is a plain finite decimal number as the venue accepts it ("1", "0.5", "-2", "1e-3" is not). */
export function isDecimalString(text: unknown): text is string {
  return typeof text === 'string' && /^-?(\d+\.?\d*|\.\d+)$/.test(text.trim()) && text.trim() === text;
}

/**
 * Parse a venue decimal (string or number); undefined when it is not numeric. A Decimal (what the engine is
 * about to send, printed with `fmt`, which reads back to the same value) is taken as it is when finite.
 */
export function parseDecimal(value: unknown): Decimal | undefined {
  if (value instanceof Decimal) return value.isFinite() ? value : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? new Decimal(value) : undefined;
  if (isDecimalString(value)) return new Decimal(value);
  return undefined;
}

/** Canonical string form: no exponent, no trailing zeros ("0.01", "30000"). */
export function fmt(value: Decimal): string {
  return value.toFixed();
}

/** The smaller of two values (a when equal), comparing without a copy (decimal-compare.ts): strategies call it per snapshot. */
export function dmin(a: Decimal, b: Decimal): Decimal {
  return minOf(a, b);
}

/** The larger of two values (a when equal), comparing without a copy. */
export function dmax(a: Decimal, b: Decimal): Decimal {
  return maxOf(a, b);
}
