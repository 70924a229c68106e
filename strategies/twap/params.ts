import { D, decimalParam, z } from '../../src/strategy/index.js';

const positive = decimalParam({ positive: true });

/** Params of the TWAP strategy (see index.ts for what each means). */
export const twapParams = z.strictObject({
  side: z.enum(['buy', 'sell']).default('buy'),
  /** Base amount to trade in all. */
  total: positive.default(D('0.01')),
  /** Time over which the total is spread (ms). */
  durationMs: z.number().int().positive().default(600_000),
  /** Number of slices; one every durationMs / slices. */
  slices: z.number().int().min(1).max(10_000).default(10),
  /** Worst acceptable price: a buy never pays more, a sell never takes less. */
  priceLimit: positive.optional(),
  /** Without priceLimit: the limit is the first mid × (1 ± maxDeviation). */
  maxDeviation: decimalParam()
    .refine((d) => d.gt(0) && d.lt(1), { message: 'must be a fraction between 0 and 1 (exclusive)' })
    .default(D('0.01')),
  /** Price steps inside the touch (0 = at the touch); never at or across the other side. */
  improveTicks: z.number().int().min(0).default(1),
  /** After an order leaves, wait this long (ms) for its fills before sizing the next one (never over-trade). */
  settleMs: z.number().int().min(0).default(2_000),
  /** After this long an unconfirmed place or cancel may be retried (ms). */
  retryAfterMs: z.number().int().positive().default(15_000),
});

export type TwapParams = z.output<typeof twapParams>;
