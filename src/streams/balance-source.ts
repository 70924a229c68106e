import { shareReplay, type Observable, type SchedulerLike } from 'rxjs';
import type { Balances } from '../model/balance.js';
import type { TradingApi } from '../venue/trading-api.js';
import { poll, type PollOptions } from './poll.js';

export interface BalanceSourceOptions extends Pick<PollOptions, 'backoff' | 'onError'> {
  readonly periodMs: number;
}

/** The account's trade balance (every asset, one request), polled; shared (refCount), latest replayed. */
export function balanceSource(api: TradingApi, options: BalanceSourceOptions, scheduler: SchedulerLike): Observable<Balances> {
  return poll(() => api.tradeBalance(), {
    periodMs: options.periodMs,
    scheduler,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
}
