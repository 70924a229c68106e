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
