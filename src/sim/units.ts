import { Decimal, ZERO } from '../model/decimal.js';
import { BotError } from '../model/errors.js';
import { smallInt } from '../model/decimal-parts.js';

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

/** A Decimal with the given documented parts (`s`, `e`, `d`), laid out as decimal.js's parser does. */
function makeDecimal(negative: boolean, e: number, d: number[]): Decimal {
  // A fresh instance from the constructor's integer fast path, then given the parts.
  const x = new Decimal(1) as unknown as { s: number; e: number; d: number[] };
  x.s = negative ? -1 : 1;
  // `-7 * leadingZeroWords` above is -0 with no leading zero word, and a scale can come in as a double: see smallInt
  x.e = smallInt(e);
  x.d = d;
  return x as unknown as Decimal;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Units of 10^-scale → Decimal, without decimal.js's string parser: decimal.js keeps a value as
 * base-1e7 words aligned on the decimal point (`d`) with the base-10 exponent of the first digit
 * (`e`) and the sign (`s`), all documented instance properties. Values below 2^53 units are split
 * with exact integer arithmetic on numbers; larger ones go through their digit string.
 * test/sim/units.test.ts checks the layout against decimal.js's own for random values.
 */
export function fromUnits(units: bigint, scale: number): Decimal {
  if (units === 0n) return ZERO;
  const negative = units < 0n;
  const abs = negative ? -units : units;
  if (abs <= MAX_SAFE && scale <= 22) return fromSafeUnits(negative, Number(abs), scale);
  return fromDigits(negative, abs.toString(), scale);
}

function fromSafeUnits(negative: boolean, n: number, scale: number): Decimal {
  const p = POW10_NUMBER[scale]!;
  const frac = n % p;
  let int = (n - frac) / p;
  const words: number[] = [];
  // Integer words, most significant first.
  const intWords: number[] = [];
  while (int > 0) {
    // words below 1e7 kept small integers (`| 0`: the same value): decimal-parts.ts's smallInt says why
    const w = (int % 1e7) | 0;
    intWords.push(w);
    int = (int - w) / 1e7;
  }
  for (let i = intWords.length - 1; i >= 0; i--) words.push(intWords[i]!);
  // Fraction words from the decimal point; the last one is padded on the right to 7 digits.
  let leadingZeroWords = 0;
  for (let k = 0; 7 * k < scale; k++) {
    const rest = scale - 7 * (k + 1);
    let w: number;
    if (rest >= 0) {
      const q = POW10_NUMBER[rest]!;
      const top = (frac - (frac % q)) / q;
      w = top % 1e7;
    } else {
      w = (frac % POW10_NUMBER[scale - 7 * k]!) * POW10_NUMBER[-rest]!;
    }
    if (words.length === 0 && w === 0) leadingZeroWords++;
    else words.push(w | 0);
  }
  while (words[words.length - 1] === 0) words.pop();
  const e = intWords.length > 0 ? 7 * (intWords.length - 1) + digitCount(words[0]!) - 1 : -7 * leadingZeroWords - 7 + digitCount(words[0]!) - 1;
  return makeDecimal(negative, e, words);
}

function fromDigits(negative: boolean, digits: string, scale: number): Decimal {
  let str = digits;
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
  return makeDecimal(negative, e, d);
}

/** A fee rate (fraction) as numerator over 10^decimals. */
export function rateParts(rate: Decimal): { num: bigint; decimals: number } {
  const decimals = rate.decimalPlaces();
  return { num: toUnits(rate, decimals), decimals };
}
