import type { Decimal } from './decimal.js';

export interface BookLevel {
  readonly price: Decimal;
  /** Base quantity at the price. */
  readonly amount: Decimal;
}

/** A public order book snapshot: asks ascending from the best, bids descending from the best. */
export interface OrderBook {
  readonly market: string;
  /** Venue time, Unix seconds. */
  readonly timestamp: number;
  readonly asks: readonly BookLevel[];
  readonly bids: readonly BookLevel[];
}

/** A public trade (from recorded captures; the v4 REST contract has no trades endpoint). */
export interface Trade {
  readonly market: string;
  /** Unix milliseconds. */
  readonly time: number;
  readonly price: Decimal;
  readonly amount: Decimal;
  /** The aggressor's side. */
  readonly takerSide: 'buy' | 'sell';
}
