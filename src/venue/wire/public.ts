import type { WireDecimal } from './common.js';

export type PingResponse = ['pong'];

export interface WireMarket {
  name: string;
  stock: string;
  money: string;
  /** Decimal places, as a string. */
  stockPrec: string;
  moneyPrec: string;
  feePrec: string;
  /** Percent strings: "0.1" = 0.1 %. */
  makerFee: WireDecimal;
  takerFee: WireDecimal;
  minAmount: WireDecimal;
  minTotal: WireDecimal;
  /** "0" = no cap. */
  maxTotal: WireDecimal;
  tradesEnabled: boolean;
  isCollateral: boolean;
  type: string;
}

export interface WireAsset {
  name: string;
  can_deposit: boolean;
  can_withdraw: boolean;
  min_withdraw: WireDecimal;
  max_withdraw: WireDecimal;
  maker_fee: WireDecimal;
  taker_fee: WireDecimal;
}
export type AssetsResponse = Record<string, WireAsset>;

export type WireLevel = [price: WireDecimal, quantity: WireDecimal];

export interface OrderBookResponse {
  ticker_id: string;
  /** Whole Unix seconds. */
  timestamp: number;
  asks: WireLevel[];
  bids: WireLevel[];
}

/**
 * One record of `GET /api/v4/public/trades/{market}` (exchange-facts §6): the last 100 trades, newest
 * first, in one spelling in both dialects (the live venue's own). Beware the naming: `quote_volume` is
 * the amount in the base (stock) currency, `base_volume` the value in the money currency.
 */
export interface WirePublicTrade {
  /** Integer, increasing with time on the venue. */
  tradeID: number;
  price: WireDecimal;
  /** Amount in the STOCK (base) currency, despite the name. */
  quote_volume: WireDecimal;
  /** Value in the MONEY currency (amount × price), despite the name. */
  base_volume: WireDecimal;
  /** Unix seconds (whole seconds on the live venue). */
  trade_timestamp: number;
  /** The taker's side. */
  type: 'buy' | 'sell';
}
export type PublicTradesResponse = WirePublicTrade[];
