import { z } from 'zod';
import { D, isDecimalString, type Decimal, type DecimalInput } from '../model/decimal.js';

export interface DecimalParamOptions {
  /** Smallest allowed value (inclusive). */
  readonly min?: DecimalInput;
  /** Largest allowed value (inclusive). */
  readonly max?: DecimalInput;
  /** Must be > 0. */
  readonly positive?: boolean;
}

/**
 * A zod schema for a money param (price, amount, fraction): accepts a decimal string (`"0.001"`, exact; preferred in
 * YAML) or a number, and outputs a Decimal. Give defaults as Decimals: `decimalParam({ positive: true }).default(D('0.001'))`.
 */
export function decimalParam(options: DecimalParamOptions = {}): z.ZodType<Decimal, string | number> {
  let schema = z
    .union([z.string().refine(isDecimalString, 'expected a decimal number such as "0.001"'), z.number().refine(Number.isFinite, 'expected a finite number')])
    .transform((value): Decimal => D(value));
  if (options.positive) schema = schema.refine((d) => d.gt(0), 'must be greater than 0');
  if (options.min !== undefined) {
    const min = D(options.min);
    schema = schema.refine((d) => d.gte(min), `must be at least ${min.toFixed()}`);
  }
  if (options.max !== undefined) {
    const max = D(options.max);
    schema = schema.refine((d) => d.lte(max), `must be at most ${max.toFixed()}`);
  }
  return schema;
}
