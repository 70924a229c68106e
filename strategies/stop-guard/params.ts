import { D, decimalParam, z } from '../../src/strategy/index.js';

const fraction = decimalParam().refine((d) => d.gt(0) && d.lt(1), { message: 'must be a fraction between 0 and 1 (exclusive)' });

/** Params of the stop-guard strategy (see index.ts for what each means). */
export const stopGuardParams = z.strictObject({
  /** Base-asset total (available + freeze) that counts as flat; position = total − baseline. */
  baseline: decimalParam({ min: 0 }).default(D(0)),
  /** Activation distance from the reference price, as a fraction (0.01: 1 % below the best bid for a long). */
  trail: fraction.default(D('0.01')),
  /** Limit price distance beyond the activation price, as a fraction (so the activated order can still fill). */
  limitOffset: fraction.default(D('0.002')),
  /** Re-trail when the reference price moved in favour by this fraction since the stop was placed. */
  step: fraction.default(D('0.002')),
  /** Cap on the protected amount (base). Absent: the whole position. */
  maxAmount: decimalParam({ positive: true }).optional(),
  /** A changed position must last this long (ms) before the stop is replaced (balances and orders are polled apart). */
  settleMs: z.number().int().min(0).default(3_000),
  /** After this long an unconfirmed place or cancel may be retried (ms). */
  retryAfterMs: z.number().int().positive().default(15_000),
});

export type StopGuardParams = z.output<typeof stopGuardParams>;
