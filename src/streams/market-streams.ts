import { Subject, type Observable, type SchedulerLike } from 'rxjs';
import type { Balances } from '../model/balance.js';
import type { OrderBook } from '../model/book.js';
import type { Deal, Order } from '../model/order.js';
import type { TradingApi } from '../venue/trading-api.js';
import { balanceSource } from './balance-source.js';
import { bookSource } from './book-source.js';
import { dealsSource } from './deals-source.js';
import type { DealTrackerOptions } from './deal-tracker.js';
import { openOrdersSource } from './open-orders-source.js';
import type { BackoffOptions } from './poll.js';
import type { PollingIntervals } from './polling-plan.js';

/** A failed poll, reported on `errors$` (the stream itself carries on and retries with backoff). */
export interface PollFailure {
  readonly source: 'book' | 'balances' | 'open-orders' | 'deals';
  readonly market?: string;
  readonly error: unknown;
  /** Consecutive failures so far, from 1. */
  readonly attempt: number;
  readonly retryInMs: number;
}

export interface MarketStreamsOptions {
  readonly api: TradingApi;
  readonly scheduler: SchedulerLike;
  /** Usually `planPolling(...).intervals`. */
  readonly intervals: PollingIntervals;
  readonly backoff?: BackoffOptions;
  /** Passed to every deals source (e.g. `since` and the journal's known ids). */
  readonly deals?: Omit<DealTrackerOptions, 'pageSize'>;
}

export interface BookQuery {
  readonly limit?: number;
  readonly level?: number;
}

/** One shared poll per source and market, whatever the number of subscribers. */
export interface MarketStreams {
  book(market: string, query?: BookQuery): Observable<OrderBook>;
  balances(): Observable<Balances>;
  openOrders(market: string): Observable<Order[]>;
  deals(market: string): Observable<Deal>;
  /** Every failed poll of every source. */
  readonly errors$: Observable<PollFailure>;
}

/**
 * The daemon's (and backtest's) registry of polling sources: asking twice for the same market's book returns the
 * same multicast Observable, so N strategies on one market cause one poll. Polls start with the first subscriber
 * and stop with the last (refCount).
 */
export function createMarketStreams(options: MarketStreamsOptions): MarketStreams {
  const { api, scheduler, intervals, backoff } = options;
  const errors$ = new Subject<PollFailure>();
  const cache = new Map<string, Observable<unknown>>();
  const memo = <T>(key: string, make: () => Observable<T>): Observable<T> => {
    let stream = cache.get(key) as Observable<T> | undefined;
    if (!stream) {
      stream = make();
      cache.set(key, stream);
    }
    return stream;
  };
  const report = (source: PollFailure['source'], market?: string) => ({
    ...(backoff ? { backoff } : {}),
    onError: (error: unknown, attempt: number, retryInMs: number) =>
      errors$.next({ source, ...(market === undefined ? {} : { market }), error, attempt, retryInMs }),
  });

  return {
    book: (market, query = {}) =>
      memo(`book|${market}|${query.limit ?? ''}|${query.level ?? ''}`, () =>
        bookSource(api, market, { ...query, periodMs: intervals.bookMs, ...report('book', market) }, scheduler),
      ),
    balances: () => memo('balances', () => balanceSource(api, { periodMs: intervals.balancesMs, ...report('balances') }, scheduler)),
    openOrders: (market) =>
      memo(`open-orders|${market}`, () =>
        openOrdersSource(api, market, { periodMs: intervals.openOrdersMs, ...report('open-orders', market) }, scheduler),
      ),
    deals: (market) =>
      memo(`deals|${market}`, () =>
        dealsSource(api, market, { ...options.deals, periodMs: intervals.dealsMs, ...report('deals', market) }, scheduler),
      ),
    errors$: errors$.asObservable(),
  };
}
