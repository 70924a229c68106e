import { shareReplay, type Observable, type SchedulerLike } from 'rxjs';
import type { OrderBook } from '../model/book.js';
import type { TradingApi } from '../venue/trading-api.js';
import { poll, type PollOptions } from './poll.js';

export interface BookSourceOptions extends Pick<PollOptions, 'backoff' | 'onError'> {
  /** Levels per side, 0-100 (0 = 100). Default: the venue's default. */
  readonly limit?: number | undefined;
  /** Price aggregation 0-5. */
  readonly level?: number | undefined;
  readonly periodMs: number;
}

/** Order book snapshots of `market`, polled every `periodMs`; shared (refCount), the latest replayed to late subscribers. */
export function bookSource(api: TradingApi, market: string, options: BookSourceOptions, scheduler: SchedulerLike): Observable<OrderBook> {
  const query = { ...(options.limit === undefined ? {} : { limit: options.limit }), ...(options.level === undefined ? {} : { level: options.level }) };
  return poll(() => api.orderBook(market, query), {
    periodMs: options.periodMs,
    scheduler,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
}
