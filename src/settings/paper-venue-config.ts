import { z } from 'zod';
import { zFraction, zIntLike, zNonNegativeDecimal } from './decimal-schema.js';
import { FillModelBlockSchema } from './fill-model-schema.js';
import { describeType } from './format-issues.js';

const ms = zIntLike.pipe(z.number().int().positive());

/** The fill assumption of the paper venue: either bound of the backtest's fill model (docs/paper-trading.md). */
export type PaperFillAssumption = 'pessimistic' | 'optimistic';
const PAPER_FILL_ASSUMPTIONS: readonly PaperFillAssumption[] = ['pessimistic', 'optimistic'];

/**
 * `venue: { kind: paper, ... }` of the daemon config: an in-process venue that speaks the v4 interface (the
 * embedded sim, over loopback HTTP, with the same client) whose market is the upstream's PUBLIC order book and
 * trades, polled without keys. The daemon's orders fill there by the backtest's fill model, the pessimistic bound
 * unless `fills: optimistic`, and never reach the upstream (src/sim/live-flow.ts, src/app/paper-venue.ts).
 *
 * ```yaml
 * venue:
 *   kind: paper
 *   upstream: { region: main }            # or { baseUrl: http://127.0.0.1:8080 } (e.g. a `bot sim`)
 *   balances: { BTC: 0.05, USDT: 5000 }   # the paper account's trade balance
 *   fees: { maker: 0.001, taker: 0.001 }  # fractions (0.001 = 0.1 %); default: the upstream's published fees
 *   fills: pessimistic                    # or optimistic (default pessimistic)
 *   fillModel: { queueAhead: 1 }          # the optimistic bound's parameters, as in a backtest config
 * ```
 */
export const PaperVenueSchema = z.strictObject({
  kind: z.literal('paper'),
  upstream: z
    .strictObject({
      /** The live venue's main or regional address; exclusive with baseUrl. */
      region: z.enum(['main', 'eu']).optional(),
      /** Any URL speaking v4 (a `bot sim` started elsewhere). */
      baseUrl: z.string().url().optional(),
      /** Upstream order book poll period. Default 1000; every market's polls share the public budget (600 books / 10 s). */
      bookMs: ms.default(1000),
      /** Upstream recent-trades poll period. Default 2000. */
      tradesMs: ms.default(2000),
      /** Levels a side taken from the upstream's book, 1-100. Default 50. */
      bookLimit: zIntLike.pipe(z.number().int().min(1).max(100)).default(50),
      /** Whole-request timeout of an upstream call. Default 3000. */
      timeoutMs: ms.default(3000),
      /** No upstream book for this long: the paper market is stale (its book frozen, nothing fills). Default max(3 × bookMs, 3000). */
      staleAfterMs: ms.optional(),
    })
    .refine((u) => !(u.region !== undefined && u.baseUrl !== undefined), { message: 'give region or baseUrl, not both', path: ['baseUrl'] })
    .refine((u) => u.region !== undefined || u.baseUrl !== undefined, {
      message: 'expected region (main or eu) or baseUrl: the venue whose public data the paper venue trades on',
    }),
  /** The paper account's trade balance per ticker; the markets' other assets start at 0. */
  balances: z.record(z.string(), zNonNegativeDecimal).superRefine((b, ctx) => {
    if (Object.keys(b).length === 0) ctx.addIssue({ code: 'custom', message: 'expected at least one ticker, e.g. { USDT: 5000 }' });
    for (const t of Object.keys(b)) {
      if (!/^[A-Z0-9]+$/.test(t))
        ctx.addIssue({ code: 'custom', path: [t], message: `expected an asset ticker such as BTC (upper-case letters and digits), got ${JSON.stringify(t)}` });
    }
  }),
  /** Fees the paper account pays, as fractions (0.001 = 0.1 %). Default: the upstream's published maker and taker fees. */
  fees: z.strictObject({ maker: zFraction, taker: zFraction }).optional(),
  /**
   * The fill assumption (src/sim/paper-fill-model.ts): `pessimistic` (default), the backtest's lower bound, or
   * `optimistic`, its upper bound.
   */
  fills: z
    .unknown()
    .optional()
    .transform((value, ctx): PaperFillAssumption => {
      if (value === undefined) return 'pessimistic';
      const known = PAPER_FILL_ASSUMPTIONS.find((a) => a === value);
      if (known !== undefined) return known;
      ctx.addIssue({
        code: 'custom',
        message: `expected pessimistic or optimistic, got ${typeof value === 'string' ? JSON.stringify(value) : describeType(value)}`,
        input: value,
      });
      return z.NEVER;
    }),
  /**
   * The optimistic bound's parameters, the `fillModel:` block of a backtest config (settings/fill-model-schema.ts;
   * `bot parity --fit` writes it). Default: queueAhead 1, decreaseTrades 1. The pessimistic bound has nothing to tune.
   */
  fillModel: FillModelBlockSchema.optional(),
});

export type PaperVenueConfig = z.output<typeof PaperVenueSchema>;

/** The paper venue's stale time when none is configured: three upstream polls missed, never under 3 s. */
export function paperStaleAfterMs(u: PaperVenueConfig['upstream']): number {
  return u.staleAfterMs ?? Math.max(3 * u.bookMs, 3000);
}
