import type { PublicTrade } from '../model/book.js';
import type { Decimal } from '../model/decimal.js';

/** Fetches a market's recent public trades (newest first, as the venue lists them). */
export type PublicTradesFetch = (market: string) => Promise<readonly PublicTrade[]>;

/**
 * The market's own trades as evidence for a jump of its book (streams/sane-books.ts `explained`): while a jump is held,
 * the recent trades are fetched (one request per held poll at most, only then: a quiet market costs nothing), and the
 * jump is explained when the newest trade was made within `maxJump` of the jump's new mid. A venue that lies about its
 * book but not about its trades is caught; a failed fetch explains nothing (the book stays held, then goes stale).
 */
export class TradeEvidence {
  /** The newest trade's price per market, null when the venue listed none; absent until a fetch answered. */
  private readonly newest = new Map<string, Decimal | null>();
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly fetch: PublicTradesFetch,
    private readonly maxJump: Decimal,
    private readonly onError: (market: string, error: unknown) => void,
  ) {}

  /** Asks for the market's recent trades (nothing when a fetch is already on its way). */
  request(market: string): void {
    if (this.inFlight.has(market)) return;
    this.inFlight.add(market);
    this.fetch(market).then(
      (trades) => {
        this.inFlight.delete(market);
        let newest: PublicTrade | undefined;
        for (const t of trades) if (newest === undefined || t.id > newest.id) newest = t;
        // an empty list is news too (a market without trades); a failed fetch is none
        if (newest !== undefined) this.newest.set(market, newest.price);
        else if (!this.newest.has(market)) this.newest.set(market, null);
      },
      (error: unknown) => {
        this.inFlight.delete(market);
        this.onError(market, error);
      },
    );
  }

  /** True when the market's newest known trade lies within maxJump of `mid`. */
  explains(market: string, mid: Decimal): boolean {
    const price = this.newest.get(market);
    return price !== undefined && price !== null && this.near(price, mid);
  }

  /**
   * True when the market's trades, once seen, do not contradict `mid`: its newest trade lies within maxJump of it, or
   * the venue listed no trade at all (nothing to compare with: the book is believed, as it was before trades were
   * asked). False until a fetch has answered (`request` one).
   */
  vouches(market: string, mid: Decimal): boolean {
    const price = this.newest.get(market);
    return price === null || (price !== undefined && this.near(price, mid));
  }

  private near(price: Decimal, mid: Decimal): boolean {
    return mid.gt(0) && price.minus(mid).abs().lte(mid.times(this.maxJump));
  }
}
