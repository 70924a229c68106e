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

/** A public trade (from recorded captures, or the venue's recent-trades endpoint, exchange-facts §6). */
export interface Trade {
  readonly market: string;
  /** Unix milliseconds. */
  readonly time: number;
  readonly price: Decimal;
  readonly amount: Decimal;
  /** The aggressor's side. */
  readonly takerSide: 'buy' | 'sell';
}

/** A trade from the venue's recent-trades endpoint: a Trade with the venue's trade id. */
export interface PublicTrade extends Trade {
  /** The venue's `tradeID` (increases with time). */
  readonly id: number;
  /** Value in the money currency, as the venue gave it. */
  readonly value: Decimal;
}
