import { D, decimalParam, z } from '../../src/strategy/index.js';

/**
 * The trend market maker's params (YAML `params:`; fractions of the price as decimals). Strict: a misspelt param
 * is a config error with the key meant, never a silent default.
 */
export const trendMmParams = z
  .strictObject({
    /** Distance between bid and ask, as a fraction of the quotes' centre (0.001 = 0.1 %). */
    spread: decimalParam({ positive: true, max: '0.1' }).default(D('0.001')),
    /** Base amount of each quote. */
    size: decimalParam({ positive: true }).default(D('0.001')),
    /** Candle period of the trend, ms (candles of the market's public trades). */
    candleMs: z.number().int().min(1000).max(3_600_000).default(10_000),
    /** Periods of the fast and the slow EMA of the candles' closes. */
    fast: z.number().int().min(2).max(500).default(6),
    slow: z.number().int().min(3).max(2000).default(24),
    /**
     * The quotes' centre moves by trendGain × trend, where trend = (fast EMA − slow EMA) / slow EMA: up in a rising
     * market (the bid nearer the touch, the ask further), down in a falling one.
     */
    trendGain: decimalParam({ min: 0, max: 100 }).default(D(1)),
    /** Largest move of the centre, as a fraction of the mid. */
    maxSkew: decimalParam({ min: 0, max: '0.05' }).default(D('0.001')),
    /** At a trend this strong (either way), the side against it is not quoted: no buying into a fall. */
    standAsideAt: decimalParam({ positive: true, max: 1 }).default(D('0.001')),
    /** Net base amount of its own fills at which the side that would add to it is no longer quoted. */
    maxInventory: decimalParam({ positive: true }).default(D('0.01')),
    /** A resting quote within this fraction of the wanted price is kept (saves rate budget and queue place). */
    refreshThreshold: decimalParam({ min: 0, max: '0.1' }).default(D('0.0002')),
  })
  .refine((p) => p.fast < p.slow, { message: 'fast must be less than slow (fast and slow are EMA periods)', path: ['fast'] });

export type TrendMmParams = z.output<typeof trendMmParams>;
