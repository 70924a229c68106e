import { D, decimalParam, z } from '../../src/strategy/index.js';

const positiveDecimal = decimalParam({ positive: true });

/** Params of the grid strategy (see index.ts for what each means). */
export const gridParams = z
  .strictObject({
    /** Lowest grid price. Absent: the first mid × (1 − range). Set it (and upper) for a grid that is stable across restarts. */
    lower: positiveDecimal.optional(),
    /** Highest grid price. Absent: the first mid × (1 + range). */
    upper: positiveDecimal.optional(),
    /** Half-width of the grid as a fraction of the first mid, used only when lower/upper are absent. */
    range: positiveDecimal.default(D('0.01')),
    /** Number of price levels, lower and upper included. */
    levels: z.number().int().min(2).max(100).default(10),
    /** Base amount of every order. */
    amount: positiveDecimal.default(D('0.001')),
    /** Post-only orders (never take). Orders that would cross the book are held back either way. */
    postOnly: z.boolean().default(false),
    /** After this long an unconfirmed place or cancel may be retried (engine clock, ms). */
    retryAfterMs: z.number().int().positive().default(15_000),
    /** A cancel must stay wanted this long (ms) before it is sent: the order's fill may be on its way. */
    cancelGraceMs: z.number().int().min(0).default(3_000),
  })
  .refine((p) => p.lower === undefined || p.upper === undefined || p.upper.gt(p.lower), {
    message: 'upper must be above lower',
    path: ['upper'],
  });

export type GridParams = z.output<typeof gridParams>;
