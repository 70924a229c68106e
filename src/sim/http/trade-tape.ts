import { fmt } from '../../model/decimal.js';
import type { PublicTradesResponse, WirePublicTrade } from '../../venue/wire.js';
import type { SimExchange } from '../exchange.js';
import type { SimTrade } from '../sim-types.js';

/** How many trades the recent-trades endpoint answers with (the exchange's last 100). */
export const TAPE_LENGTH = 100;

/**
 * The public trades the recent-trades endpoint serves (`GET /api/v4/public/trades/{market}`,
 * exchange-facts §6), per market, from the sim's own matching: a ring of the last TAPE_LENGTH trades.
 *
 * Records are built in the live venue's spelling (one spelling in both dialects, like the order book):
 * `tradeID` = the fill id, `quote_volume` = the amount in the stock currency, `base_volume` = amount ×
 * price in the money currency, `trade_timestamp` = whole Unix seconds (as the live venue sends), `type` =
 * the taker's side. A filter by `type` keeps the last 100 of the whole tape that match (it is not a
 * separate tape per side, so a sell-heavy minute can answer fewer than 100 buys, as a 100-deep tape would).
 */
export class TradeTape {
  // SimTrades as published; the wire record is built on request (trades far outnumber requests in a busy sim)
  readonly #rings = new Map<string, SimTrade[]>();
  readonly #unsubscribe: () => void;

  constructor(exchange: SimExchange) {
    this.#unsubscribe = exchange.onTrade((t) => this.#add(t));
  }

  /** Newest first, at most TAPE_LENGTH; `type` keeps one taker side. */
  recent(market: string, type?: 'buy' | 'sell'): PublicTradesResponse {
    const ring = this.#rings.get(market) ?? [];
    const out: WirePublicTrade[] = [];
    for (let i = ring.length - 1; i >= Math.max(0, ring.length - TAPE_LENGTH); i--) {
      const t = ring[i]!;
      if (type === undefined || t.takerSide === type) out.push(wireTrade(t));
    }
    return out;
  }

  close(): void {
    this.#unsubscribe();
  }

  #add(t: SimTrade): void {
    let ring = this.#rings.get(t.market);
    if (ring === undefined) this.#rings.set(t.market, (ring = []));
    ring.push(t);
    // amortised trim: drop the oldest half-ring at once instead of shifting on every trade
    if (ring.length >= 2 * TAPE_LENGTH) ring.splice(0, ring.length - TAPE_LENGTH);
  }
}

function wireTrade(t: SimTrade): WirePublicTrade {
  return {
    tradeID: t.id,
    price: fmt(t.price),
    quote_volume: fmt(t.amount),
    base_volume: fmt(t.amount.mul(t.price)),
    trade_timestamp: Math.floor(t.time / 1000),
    type: t.takerSide,
  };
}
