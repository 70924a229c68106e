import { Decimal, ZERO } from '../model/decimal.js';
import { BotError } from '../model/errors.js';

/**
 * Exact fixed-point money for the matching hot path. The ledger and the order book count every asset
 * in integer units of 10^-scale (bigint), so additions, fills and fees are exact integer arithmetic
 * (no float, no rounding) at a fraction of decimal.js's cost; every value entering or leaving the
 * exchange is a Decimal, converted here. The scale is chosen so that every product the exchange forms
 * (amount × price × fee rate) is a whole number of units (see `requiredScale`).
 */
const pow10Cache: bigint[] = [];

export function pow10(n: number): bigint {
  let p = pow10Cache[n];
  if (p === undefined) {
    p = 10n ** BigInt(n);
    pow10Cache[n] = p;
  }
  return p;
}

/**
 * decimal.js's documented read-only instance properties: sign `s`, base-10 exponent `e` and the
 * digits `d` in base-1e7 words (the first word holds 1-7 digits, the others 7). Reading them lets the
 * hot path turn a price or an amount into integers without formatting a string.
 */
interface DecimalParts {
  readonly s: number;
  readonly e: number;
  readonly d: readonly number[] | null;
}

/** 10^0 … 10^22: every power of ten a double holds exactly. */
const POW10_NUMBER = Array.from({ length: 23 }, (_, i) => 10 ** i);

function digitCount(word: number): number {
  return word >= 1e6 ? 7 : word >= 1e5 ? 6 : word >= 1e4 ? 5 : word >= 1e3 ? 4 : word >= 100 ? 3 : word >= 10 ? 2 : 1;
}

/**
 * The value × 10^scale as a safe integer number, or undefined when it is not a whole number, needs
 * more than 15 significant digits, or exceeds 2^53 (callers then take the exact string path).
 */
export function scaledSafeInteger(value: Decimal, scale: number): number | undefined {
  const x = value as unknown as DecimalParts;
  const d = x.d;
  if (d === null || d.length > 3) return undefined;
  if (d.length === 1 && d[0] === 0) return 0;
  const total = digitCount(d[0]!) + 7 * (d.length - 1);
  if (total > 15) return undefined;
  const shift = x.e + 1 - total + scale;
  let n = d[0]!;
  for (let i = 1; i < d.length; i++) n = n * 1e7 + d[i]!;
  if (shift > 22 || shift < -22) return undefined;
  let out: number;
  if (shift >= 0) out = n * POW10_NUMBER[shift]!;
  else {
    const div = POW10_NUMBER[-shift]!;
    if (n % div !== 0) return undefined;
    out = n / div;
  }
  return Number.isSafeInteger(out) ? x.s * out : undefined;
}

/** Decimal → units of 10^-scale. Throws when the value has more decimals than the scale holds. */
export function toUnits(value: Decimal, scale: number): bigint {
  // Fast path for the usual venue numbers (<= 15 significant digits): no string formatting.
  const x = value as unknown as DecimalParts;
  const d = x.d;
  if (d !== null && d.length <= 3) {
    const total = digitCount(d[0]!) + 7 * (d.length - 1);
    const shift = x.e + 1 - total + scale;
    if (total <= 15 && shift >= 0) {
      let n = d[0]!;
      for (let i = 1; i < d.length; i++) n = n * 1e7 + d[i]!;
      const units = BigInt(n) * pow10(shift);
      return x.s < 0 ? -units : units;
    }
  }
  if (value.decimalPlaces() > scale) {
    throw new BotError(`sim: ${value.toFixed()} has more than ${scale} decimal places`, { code: 'ERR_SIM_PRECISION' });
  }
  const text = value.toFixed();
  const dot = text.indexOf('.');
  if (dot < 0) return BigInt(text) * pow10(scale);
  const frac = text.slice(dot + 1);
  return BigInt(text.slice(0, dot) + frac) * pow10(scale - frac.length);
}

/** True when the value fits the scale exactly. */
export function fitsScale(value: Decimal, scale: number): boolean {
  return value.isFinite() && value.decimalPlaces() <= scale;
}

/**
 * Units of 10^-scale → Decimal. Builds the instance's documented parts (`s`, `e`, `d`) the way
 * decimal.js's own string parser lays them out, minus the validation and formatting the units do not
 * need (test/sim/units.test.ts checks it against the string path for random values).
 */
export function fromUnits(units: bigint, scale: number): Decimal {
  if (units === 0n) return ZERO;
  const negative = units < 0n;
  let str = (negative ? -units : units).toString();
  let len = str.length;
  while (str.charCodeAt(len - 1) === 48) len--;
  const e = str.length - 1 - scale;
  str = str.slice(0, len);
  const d: number[] = [];
  let i = (e + 1) % 7;
  if (e < 0) i += 7;
  if (i < len) {
    if (i) d.push(+str.slice(0, i));
    for (len -= 7; i < len; ) d.push(+str.slice(i, (i += 7)));
    str = str.slice(i);
    i = 7 - str.length;
  } else {
    i -= len;
  }
  while (i-- > 0) str += '0';
  d.push(+str);
  // A fresh instance from the constructor's integer fast path, then given the parsed parts.
  const x = new Decimal(1) as unknown as { s: number; e: number; d: number[] };
  x.s = negative ? -1 : 1;
  x.e = e;
  x.d = d;
  return x as unknown as Decimal;
}

/** A fee rate (fraction) as numerator over 10^decimals. */
export function rateParts(rate: Decimal): { num: bigint; decimals: number } {
  const decimals = rate.decimalPlaces();
  return { num: toUnits(rate, decimals), decimals };
}
