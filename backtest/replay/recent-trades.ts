import type { PublicTrade } from '../../src/model/book.js';
import type { Decimal } from '../../src/model/decimal.js';
import type { TickTrade } from '../../src/fill-model/fill-model.js';

/**
 * The recording's trades as the venue's recent-trades endpoint lists them (exchange-facts §6): the last `pageSize`
 * made so far, newest first. A recording need not carry the venue's trade ids, so they are numbered in the
 * recording's order, which is what the ids promise (unique, increasing with time). The backtest venue serves
 * them, so a strategy's `trades$` and candles are polled and built by the daemon's own code, as live.
 */
export class RecentTrades {
  readonly #market: string;
  readonly #pageSize: number;
  /** The last `pageSize` trades, oldest first. */
  readonly #last: PublicTrade[] = [];
  #nextId = 1;

  constructor(market: string, pageSize = 100) {
    this.#market = market;
    this.#pageSize = pageSize;
  }

  /** A recorded trade, made at `t` (Unix ms). */
  add(t: number, trade: TickTrade, price: Decimal): void {
    this.#last.push({
      market: this.#market,
      id: this.#nextId++,
      time: t,
      price,
      amount: trade.amount,
      value: price.mul(trade.amount),
      takerSide: trade.takerSide,
    });
    if (this.#last.length > this.#pageSize) this.#last.shift();
  }

  /** The page the endpoint answers now: newest first. */
  page(): PublicTrade[] {
    return this.#last.slice().reverse();
  }
}
