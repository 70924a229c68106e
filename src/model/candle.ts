import type { Decimal } from './decimal.js';

/**
 * One OHLCV candle of a market's public trades: the trades whose time falls in [start, start + periodMs). A period
 * without trades, after the first one, is a flat candle at the last close with no volume (an indicator then sees
 * evenly spaced periods).
 */
export interface Candle {
  readonly market: string;
  /** Start of the period, Unix ms: a whole multiple of `periodMs`. */
  readonly start: number;
  readonly periodMs: number;
  readonly open: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly close: Decimal;
  /** Base amount traded. */
  readonly volume: Decimal;
  /** Money value traded: the sum of price × amount. */
  readonly value: Decimal;
  /** Number of trades (0 in a flat candle). */
  readonly trades: number;
}
