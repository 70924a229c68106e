import { fmt } from '../../model/decimal.js';
import type { OrderBook } from '../../model/book.js';
import type { Market } from '../../model/market.js';
import type { AssetsResponse, OrderBookResponse, WireAsset, WireMarket } from '../../venue/wire.js';

/** Domain → wire for the public endpoints (exchange-facts §3, §6). */

/** Fees go out as PERCENT strings ("0.1" = 0.1 %); precisions as strings; no cap = "0". */
export function marketRecord(m: Market): WireMarket {
  return {
    name: m.name,
    stock: m.stock,
    money: m.money,
    stockPrec: String(m.stockPrec),
    moneyPrec: String(m.moneyPrec),
    feePrec: '4',
    makerFee: fmt(m.makerFee.mul(100)),
    takerFee: fmt(m.takerFee.mul(100)),
    minAmount: fmt(m.minAmount),
    minTotal: fmt(m.minTotal),
    maxTotal: m.maxTotal === null ? '0' : fmt(m.maxTotal),
    tradesEnabled: m.tradesEnabled,
    isCollateral: false,
    type: 'spot',
  };
}

/** Every asset of the markets; the fee shown is the first market's that trades it (the venue shows one per asset). */
export function assetsRecord(markets: Iterable<Market>): AssetsResponse {
  const assets: AssetsResponse = {};
  for (const m of markets) {
    for (const ticker of [m.stock, m.money]) {
      if (assets[ticker] !== undefined) continue;
      const asset: WireAsset = {
        name: ticker,
        can_deposit: true,
        can_withdraw: true,
        min_withdraw: '0',
        max_withdraw: '0',
        maker_fee: fmt(m.makerFee.mul(100)),
        taker_fee: fmt(m.takerFee.mul(100)),
      };
      assets[ticker] = asset;
    }
  }
  return assets;
}

export function bookRecord(book: OrderBook): OrderBookResponse {
  return {
    ticker_id: book.market,
    timestamp: Math.floor(book.timestamp),
    asks: book.asks.map((l) => [fmt(l.price), fmt(l.amount)]),
    bids: book.bids.map((l) => [fmt(l.price), fmt(l.amount)]),
  };
}

/** Parses a non-negative integer query parameter within [min, max]; undefined = absent; NaN = invalid. */
export function intParam(value: string | null, min: number, max: number): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^\d+$/.test(value)) return Number.NaN;
  const n = Number(value);
  return n >= min && n <= max ? n : Number.NaN;
}
