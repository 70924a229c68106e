import { z } from 'zod';
import { parseDecimal, type Decimal } from '../model/decimal.js';
import { MalformedResponseError } from './errors.js';

/** A venue decimal: a numeric string (or a plain number, which the venue also uses) into Decimal. */
export const zDecimal = z.union([z.string(), z.number()]).transform((value, ctx): Decimal => {
  const parsed = parseDecimal(value);
  if (parsed === undefined) {
    ctx.issues.push({ code: 'custom', message: 'expected a decimal number', input: value });
    return z.NEVER;
  }
  return parsed;
});

/** An integer the venue may send as a number or as a string of digits. */
export const zIntLike = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

/**
 * Validates `data` against `schema`, or throws MalformedResponseError naming the endpoint and the
 * paths that were wrong. Messages name paths and expected types only, never values (a value may be a
 * created code, a bearer secret).
 */
export function parseShape<S extends z.ZodType>(schema: S, data: unknown, endpoint: string, what: string): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issues = result.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
  throw new MalformedResponseError(`${endpoint}: response is not a valid ${what} (${issues})`, { endpoint });
}

/** Copies camelCase aliases onto the contract's snake_case keys so one schema reads both dialects. */
export function withAliases(aliases: Readonly<Record<string, string>>): (raw: unknown) => unknown {
  return (raw) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const source = raw as Record<string, unknown>;
    const out: Record<string, unknown> = { ...source };
    for (const [alias, canonical] of Object.entries(aliases)) {
      if (out[canonical] === undefined && source[alias] !== undefined) out[canonical] = source[alias];
    }
    return out;
  };
}
