import type { OrderBook } from '../model/book.js';
import { bestPrice, sideCount } from '../model/book-levels.js';
import { D, type Decimal } from '../model/decimal.js';
import { dadd, dmul } from '../model/decimal-small.js';
import type { PriceReference } from './price-band.js';

const HALF = D('0.5');

/**
 * What the engine knows of each market's data beyond the latest sane book: whether it is stale (orders refused,
 * resting ones cancelled, see EngineCore.onStale), and the price band's reference: the mid of the last sane book
 * with both sides, else the market's last fill. Books reach it only through the sanity check (streams/sane-books),
 * so no held book ever becomes a reference.
 */
export class BookGuard {
  private readonly stale = new Set<string>();
  /** Per market: the last sane book with both sides. */
  private readonly twoSided = new Map<string, OrderBook>();
  /** Per market: the reference worked out from a two-sided book, kept while that book is the last (a strategy places several orders per book). */
  private readonly midRefs = new Map<string, { book: OrderBook; ref: PriceReference }>();
  private readonly lastTrade = new Map<string, Decimal>();

  /** A sane book: kept as the reference when both sides are there (its mid is worked out only when an order needs it). */
  onSaneBook(market: string, book: OrderBook): void {
    if (sideCount(book, 'bids') > 0 && sideCount(book, 'asks') > 0) this.twoSided.set(market, book);
  }

  /** A fill on the market (any strategy's): the reference while there is no sane mid. */
  onTrade(market: string, price: Decimal): void {
    this.lastTrade.set(market, price);
  }

  /** True when the freshness changed. */
  setStale(market: string, stale: boolean): boolean {
    if (stale === this.stale.has(market)) return false;
    if (stale) this.stale.add(market);
    else this.stale.delete(market);
    return true;
  }

  isStale(market: string): boolean {
    return this.stale.size > 0 && this.stale.has(market);
  }

  reference(market: string): PriceReference | undefined {
    const book = this.twoSided.get(market);
    if (book !== undefined) {
      let cached = this.midRefs.get(market);
      if (cached?.book !== book) {
        cached = { book, ref: { price: dmul(dadd(bestPrice(book, 'bids')!, bestPrice(book, 'asks')!), HALF), source: 'mid' } };
        this.midRefs.set(market, cached);
      }
      return cached.ref;
    }
    const trade = this.lastTrade.get(market);
    return trade === undefined ? undefined : { price: trade, source: 'last-trade' };
  }
}
