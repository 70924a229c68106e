import type { z } from 'zod';
import { objectKeysAt } from './schema-keys.js';
import { unknownKeyText } from './suggest-key.js';

/** One schema problem in words a config author can act on: where, what was expected, what was found. */
export interface ConfigIssue {
  readonly path: readonly PropertyKey[];
  readonly text: string;
  /** The issue is the key at `path` itself (an unknown key): point at the key, not at its value. */
  readonly atKey?: boolean;
}

// Values are shown only when they cannot be secrets: enum/literal mismatches under a key that does not
// look secret, and then shortened. Everything else is described by its type.
const SECRET_KEY = /secret|passphrase|password|token|key|code|signature|payload/i;

/** `string`, `number`, `array`, `null`, `object`... as a config author would say it. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'boolean') return `${value}`;
  return typeof value;
}

function showValue(value: unknown, path: readonly PropertyKey[]): string {
  const last = path[path.length - 1];
  if (typeof last === 'string' && SECRET_KEY.test(last)) return describeType(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (typeof value === 'string' && value.length <= 40) return JSON.stringify(value);
  return describeType(value);
}

type Issue = z.core.$ZodIssue;

const TYPE_WORDS: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
};
const word = (expected: string): string => TYPE_WORDS[expected] ?? expected;

function one(issue: Issue, prefix: readonly PropertyKey[], schema: z.ZodType | undefined): ConfigIssue[] {
  const path = [...prefix, ...issue.path];
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      return [
        { path, text: input === undefined ? `missing (expected ${word(issue.expected)})` : `expected ${word(issue.expected)}, got ${describeType(input)}` },
      ];
    case 'invalid_value':
      return [
        { path, text: `expected ${issue.values.map((v) => JSON.stringify(v)).join(' | ')}, got ${input === undefined ? 'nothing' : showValue(input, path)}` },
      ];
    case 'unrecognized_keys': {
      const known = schema === undefined ? [] : objectKeysAt(schema, path, input);
      return issue.keys.map((key) => ({ path: [...path, key], text: unknownKeyText(key, known), atKey: true }));
    }
    case 'invalid_union': {
      if ('discriminator' in issue && issue.discriminator !== undefined) {
        const options = (issue as { options?: unknown[] }).options ?? [];
        const got = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[issue.discriminator] : undefined;
        return [{ path, text: `expected ${options.map((o) => JSON.stringify(o)).join(' | ')}, got ${got === undefined ? 'nothing' : showValue(got, path)}` }];
      }
      const branches = issue.errors;
      // Primitive alternatives (number | string): one line naming all of them.
      if (branches.every((b) => b.length === 1 && b[0]?.code === 'invalid_type' && b[0].path.length === 0)) {
        const expected = branches.map((b) => word((b[0] as { expected: string }).expected)).join(' or ');
        return [{ path, text: input === undefined ? `missing (expected ${expected})` : `expected ${expected}, got ${describeType(input)}` }];
      }
      // Shapes: report the alternative that came closest (fewest problems).
      const closest = [...branches].sort((a, b) => a.length - b.length)[0];
      if (closest === undefined || closest.length === 0) return [{ path, text: issue.message }];
      return closest.flatMap((sub) => one(sub, path, schema));
    }
    case 'too_small':
    case 'too_big':
      return [{ path, text: `${issue.message.replace(/^Too (small|big): /, '')}, got ${input === undefined ? 'nothing' : showValue(input, path)}` }];
    default:
      return [{ path, text: issue.message }];
  }
}

/**
 * Flattens zod issues (unions included) into config issues. Parse with `{ reportInput: true }`. With the schema
 * that was parsed, an unknown key close to a known one says which (`did you mean \`spread\`?`).
 */
export function formatZodIssues(issues: readonly Issue[], schema?: z.ZodType): ConfigIssue[] {
  return issues.flatMap((issue) => one(issue, [], schema));
}
