import type { Observable, SchedulerLike } from 'rxjs';
import type { OrderBook } from '../model/book.js';
import type { TradingApi } from '../venue/trading-api.js';
import { poll, type PollOptions } from './poll.js';
import { shareLatest } from './share-latest.js';

export interface BookSourceOptions extends Pick<PollOptions, 'backoff' | 'onError'> {
  /** Levels per side, 0-100 (0 = 100). Default: the venue's default. */
  readonly limit?: number | undefined;
  /** Price aggregation 0-5. */
  readonly level?: number | undefined;
  readonly periodMs: number;
  /**
   * Share the polls and replay the latest book to late subscribers (default true). False: the bare poll, for a
   * caller that shares the stream further on itself (the runtime shares the checked books), so each book does not
   * pass through a second replay subject on its way (one per poll, every second of a replay).
   */
  readonly shared?: boolean | undefined;
}

/** Order book snapshots of `market`, polled every `periodMs`; shared (refCount), the latest replayed to late subscribers (see `shared`). */
export function bookSource(api: TradingApi, market: string, options: BookSourceOptions, scheduler: SchedulerLike): Observable<OrderBook> {
  const query = { ...(options.limit === undefined ? {} : { limit: options.limit }), ...(options.level === undefined ? {} : { level: options.level }) };
  const polled = poll(() => api.orderBook(market, query), {
    periodMs: options.periodMs,
    scheduler,
    // the fetch is the api's call itself
    startsRequest: true,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return options.shared === false ? polled : polled.pipe(shareLatest());
}
