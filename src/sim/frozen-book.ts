import type { OrderBook } from '../model/book.js';
import type { PublicBookOptions } from './public-book.js';

/** The aggregation levels the public book endpoint accepts (0-5). */
const LEVELS = [0, 1, 2, 3, 4, 5] as const;

/**
 * A market's public book held as it was at one moment: what a venue whose own market data stopped coming shows
 * (the paper venue when its upstream is lost, live-flow.ts). Every query is answered from the moment of the freeze,
 * the timestamp too, so a client polling it sees the same book again and again - a stale book, which the daemon's
 * stale watch reports like any other - whatever happens in the matching engine meanwhile.
 *
 * The book is taken at every aggregation level, 100 entries a side (the most a query asks for); a query for fewer
 * entries gets the first ones, which is what the live book would answer for that depth.
 */
export class FrozenBook {
  readonly #byLevel: readonly OrderBook[];

  constructor(capture: (level: number) => OrderBook) {
    this.#byLevel = LEVELS.map(capture);
  }

  view(o: PublicBookOptions = {}): OrderBook {
    const book = this.#byLevel[o.level ?? 0] ?? this.#byLevel[0]!;
    const n = o.limit === undefined || o.limit === 0 ? 100 : o.limit;
    return { ...book, asks: book.asks.slice(0, n), bids: book.bids.slice(0, n) };
  }
}
