import { z } from 'zod';
import { parseDecimal, type Decimal } from '../model/decimal.js';
import { describeType } from './format-issues.js';

/**
 * zod helpers for money in configs. YAML numbers and quoted decimal strings are both accepted; the loader
 * hands over a float that JS cannot hold exactly as its source text, so `0.123456789012345678` is exact.
 * Exponent forms (`1e-3`) are refused, like the venue refuses them.
 */
function decimal(check?: { test: (d: Decimal) => boolean; expected: string }) {
  const expected = check?.expected ?? 'a decimal number (e.g. 0.01 or "0.01")';
  return z.unknown().transform((value, ctx): Decimal => {
    const d = parseDecimal(value);
    if (value === undefined) ctx.addIssue({ code: 'custom', message: `missing (expected ${expected})`, input: value });
    else if (d === undefined) ctx.addIssue({ code: 'custom', message: `expected ${expected}, got ${describeType(value)}`, input: value });
    else if (check !== undefined && !check.test(d)) ctx.addIssue({ code: 'custom', message: `expected ${expected}, got ${d.toFixed()}`, input: value });
    else return d;
    return z.NEVER;
  });
}

/** Any decimal: number or decimal string → Decimal. */
export const zDecimal = decimal();
/** A decimal > 0 (prices, amounts, spreads). */
export const zPositiveDecimal = decimal({ test: (d) => d.gt(0), expected: 'a decimal greater than 0' });
/** A decimal ≥ 0 (limits where 0 means none, balances). */
export const zNonNegativeDecimal = decimal({ test: (d) => d.gte(0), expected: 'a decimal of 0 or more' });
/** A fraction in [0, 1] (fees, ratios): `0.001` = 0.1 %. */
export const zFraction = decimal({ test: (d) => d.gte(0) && d.lte(1), expected: 'a fraction between 0 and 1 (0.001 = 0.1 %)' });

/**
 * A number also given as a numeric string, because values from `${ENV}` are strings (`port: ${PORT:-8080}`).
 * For counts, times and ports only; money uses the decimal schemas.
 */
export const zNumberLike = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, 'expected a number')
    .transform(Number),
]);
/** An integer, also as a string of digits. */
export const zIntLike = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/, 'expected an integer')
    .transform(Number),
]);
