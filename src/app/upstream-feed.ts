import type { Logger } from 'pino';
import { Subscription, type SchedulerLike } from 'rxjs';
import { TradeDeduper } from '../streams/trade-dedup.js';
import type { BookLevel, OrderBook, PublicTrade } from '../model/book.js';
import { BotError } from '../model/errors.js';
import type { LiveMarketFeed } from '../sim/live-flow.js';
import { poll } from '../streams/poll.js';

/**
 * The upstream calls a paper venue makes: public ones only. The client behind it is built without a key, so a
 * signed request could not even be made; this type keeps the feed from asking for one.
 */
export interface UpstreamPublicApi {
  orderBook(market: string, query?: { readonly limit?: number }): Promise<OrderBook>;
  publicTrades(market: string): Promise<PublicTrade[]>;
}

export interface UpstreamFeedOptions {
  readonly api: UpstreamPublicApi;
  readonly markets: readonly string[];
  readonly bookMs: number;
  readonly tradesMs: number;
  /** Levels a side asked of the upstream's book. */
  readonly bookLimit: number;
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
}

/** An upstream answer that parsed but is no book to trade on (crossed, or a price or amount ≤ 0): counted as a failed poll. */
export class UpstreamBookError extends BotError {
  constructor(message: string) {
    super(message, { code: 'ERR_PAPER_UPSTREAM_BOOK' });
  }
}

/**
 * Polls the upstream's public order books and recent trades of the paper venue's markets, within the public
 * budget (the client's limiter holds every call to the venue's table), and hands them to the sim's live flow
 * (src/sim/live-flow.ts) through LiveMarketFeed: the newest book per market, the trades not handed over before
 * (de-duplicated by the upstream's trade id, oldest first). A failed poll (timeout, 5xx, garbage, an insane book)
 * hands nothing over, nor does the same snapshot again (an upstream whose book timestamp stands still), so the live
 * flow sees no book and, after its stale time, freezes the market; the polls go on with backoff (at most 5 s apart)
 * until the upstream answers again.
 */
export class UpstreamFeed implements LiveMarketFeed {
  readonly #o: UpstreamFeedOptions;
  readonly #books = new Map<string, OrderBook>();
  /** The last book handed over per market (repeats of it are not). */
  readonly #last = new Map<string, OrderBook>();
  readonly #trades = new Map<string, PublicTrade[]>();
  readonly #dedup = new Map<string, TradeDeduper>();
  readonly #seen = new Set<string>();
  readonly #failing = new Map<string, number>();
  readonly #subs = new Subscription();
  #onBook: (() => void) | undefined;

  constructor(o: UpstreamFeedOptions) {
    this.#o = o;
  }

  start(): void {
    const { api, scheduler, bookMs, tradesMs, bookLimit } = this.#o;
    for (const m of this.#o.markets) {
      this.#dedup.set(m, new TradeDeduper());
      const books = poll(async () => checkedBook(await api.orderBook(m, { limit: bookLimit })), {
        periodMs: bookMs,
        scheduler,
        backoff: { baseMs: Math.min(bookMs, 1000), maxMs: 5000, factor: 2 },
        onError: (error, attempt, retryInMs) => this.#failed(`order book ${m}`, error, attempt, retryInMs),
      });
      this.#subs.add(
        books.subscribe((book) => {
          this.#recovered(`order book ${m}`);
          this.#seen.add(m);
          this.#onBook?.();
          // the same snapshot again (same timestamp and touch) is no news: an upstream that repeats one book goes stale
          const last = this.#last.get(m);
          if (last !== undefined && sameSnapshot(last, book)) return;
          this.#last.set(m, book);
          this.#books.set(m, book);
        }),
      );
      const trades = poll(() => api.publicTrades(m), {
        periodMs: tradesMs,
        scheduler,
        backoff: { baseMs: Math.min(tradesMs, 1000), maxMs: 5000, factor: 2 },
        onError: (error, attempt, retryInMs) => this.#failed(`recent trades ${m}`, error, attempt, retryInMs),
      });
      this.#subs.add(
        trades.subscribe((page) => {
          this.#recovered(`recent trades ${m}`);
          const step = this.#dedup.get(m)!.accept(page);
          if (step.gap) this.#o.logger.debug({ market: m }, 'paper venue: a page of upstream trades did not overlap the previous one (trades may be missing)');
          if (step.fresh.length > 0) this.#trades.set(m, [...(this.#trades.get(m) ?? []), ...step.fresh]);
        }),
      );
    }
  }

  /** Resolves true once every market has had a book, or false after `ms` on the feed's scheduler. */
  firstBooks(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const all = () => this.#o.markets.every((m) => this.#seen.has(m));
      if (all()) return resolve(true);
      const timer = this.#o.scheduler.schedule(() => {
        this.#onBook = undefined;
        resolve(false);
      }, ms);
      this.#onBook = () => {
        if (!all()) return;
        this.#onBook = undefined;
        timer.unsubscribe();
        resolve(true);
      };
    });
  }

  /** Markets that have had no book yet. */
  waiting(): string[] {
    return this.#o.markets.filter((m) => !this.#seen.has(m));
  }

  takeBook(market: string): OrderBook | undefined {
    const book = this.#books.get(market);
    this.#books.delete(market);
    return book;
  }

  takeTrades(market: string): readonly PublicTrade[] {
    const trades = this.#trades.get(market) ?? [];
    this.#trades.delete(market);
    return trades;
  }

  stop(): void {
    this.#subs.unsubscribe();
    this.#onBook = undefined;
  }

  /** The first failure of an episode is a warning; the next ones are only counted (the live flow reports the stale market). */
  #failed(what: string, error: unknown, attempt: number, retryInMs: number): void {
    this.#failing.set(what, attempt);
    const message = error instanceof Error ? error.message : String(error);
    if (attempt === 1) this.#o.logger.warn({ upstream: what, retryInMs }, `paper venue: upstream ${what} failed: ${message}`);
    else this.#o.logger.debug({ upstream: what, attempt, retryInMs }, `paper venue: upstream ${what} failed again: ${message}`);
  }

  #recovered(what: string): void {
    const failures = this.#failing.get(what);
    if (failures === undefined) return;
    this.#failing.delete(what);
    this.#o.logger.info({ upstream: what, failures }, `paper venue: upstream ${what} answers again after ${failures} failed polls`);
  }
}

/** A repeated book, as the daemon tells one (engine/runtime.ts sameBookTop): same timestamp and touch (here its amounts too). */
function sameSnapshot(a: OrderBook, b: OrderBook): boolean {
  const same = (x: BookLevel | undefined, y: BookLevel | undefined) =>
    x === undefined || y === undefined ? x === y : x.price.eq(y.price) && x.amount.eq(y.amount);
  return a.timestamp === b.timestamp && same(a.bids[0], b.bids[0]) && same(a.asks[0], b.asks[0]);
}

/** A book the paper venue can mirror: no price or amount ≤ 0, not crossed. Anything else is garbage, like a parse failure. */
function checkedBook(book: OrderBook): OrderBook {
  for (const l of [...book.bids, ...book.asks]) {
    if (!(l.price.gt(0) && l.amount.gt(0)))
      throw new UpstreamBookError(`${book.market}: a level ${l.price.toFixed()} × ${l.amount.toFixed()} (expected both > 0)`);
  }
  const bid = book.bids[0]?.price;
  const ask = book.asks[0]?.price;
  if (bid !== undefined && ask !== undefined && bid.gte(ask))
    throw new UpstreamBookError(`${book.market}: a crossed book (best bid ${bid.toFixed()} >= best ask ${ask.toFixed()})`);
  return book;
}
