/**
 * One broken rule, as the venue reports it: `code` is the body's `code` (30-37 on the order endpoints,
 * 0 for codes), `field` the key of the `errors` object, `message` the venue's text with the market's numbers.
 * Violations are values: the caller decides whether to answer 422, skip an intent or log it.
 */
export interface RuleViolation {
  readonly code: number;
  readonly field: string;
  readonly message: string;
}

/** Validation codes of the order endpoints (api-v4.md "Errors"); rules/ sits below venue/, so it keeps its own copy. */
export const RULE_CODES = {
  default: 30,
  market: 31,
  amount: 32,
  price: 33,
  clientOrderId: 36,
  flagConflict: 37,
  /** The code endpoint's request validation uses code 0. */
  code: 0,
} as const;

/** The venue's `errors` object: field → messages, in the order the violations came (first key = first violation). */
export function toErrorsMap(v: readonly RuleViolation[]): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const { field, message } of v) {
    const list = map[field] ?? (map[field] = []);
    if (!list.includes(message)) list.push(message);
  }
  return map;
}

/** The code the venue answers with: that of the first violation (highest precedence); undefined when valid. */
export function violationCode(v: readonly RuleViolation[]): number | undefined {
  return v[0]?.code;
}

/** One line for logs and CLI output: `32 amount: Given amount is less than min amount 0.001; ...`. */
export function describeViolations(v: readonly RuleViolation[]): string {
  return v.map((x) => `${x.code} ${x.field}: ${x.message}`).join('; ');
}
