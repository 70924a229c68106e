import type { OrderBook, PublicTrade } from '../../src/model/book.js';
import { D } from '../../src/model/decimal.js';
import type { Market } from '../../src/model/market.js';
import type { LiveMarketFeed } from '../../src/sim/live-flow.js';

/** What an upstream poller hands the live flow (src/sim/live-flow.ts): one book and some trades at a time, taken once. */
export class HandFeed implements LiveMarketFeed {
  book: OrderBook | undefined;
  trades: PublicTrade[] = [];
  takeBook(): OrderBook | undefined {
    const b = this.book;
    this.book = undefined;
    return b;
  }
  takeTrades(): readonly PublicTrade[] {
    return this.trades.splice(0);
  }
}

/** BTC_USDT with a 0.1 % maker and 0.2 % taker fee, cents for prices; the lot and minimums as the test needs. */
export function btcUsdt(lot: Pick<Market, 'stockPrec' | 'minAmount' | 'minTotal'>): Market {
  return {
    name: 'BTC_USDT',
    stock: 'BTC',
    money: 'USDT',
    moneyPrec: 2,
    maxTotal: null,
    makerFee: D('0.001'),
    takerFee: D('0.002'),
    tradesEnabled: true,
    ...lot,
  };
}

/** A book of `market` from [price, amount] strings, best first. */
export const levelsBook = (market: string, bids: Array<[string, string]>, asks: Array<[string, string]>): OrderBook => ({
  market,
  timestamp: 0,
  bids: bids.map(([p, q]) => ({ price: D(p), amount: D(q) })),
  asks: asks.map(([p, q]) => ({ price: D(p), amount: D(q) })),
});
