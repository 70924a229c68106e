import { defer, from, mergeMap, type Observable, type SchedulerLike } from 'rxjs';
import type { PublicTrade } from '../model/book.js';
import { poll } from './poll.js';
import { TradeDeduper } from './trade-dedup.js';

export interface TradesSourceOptions {
  /** Time between two polls of the recent-trades page, ms. */
  readonly periodMs: number;
  /** Told about every failed poll (see poll.ts); the stream goes on. */
  readonly onError?: ((error: unknown, attempt: number, retryInMs: number) => void) | undefined;
  /** Told when a page was full and newer than every trade seen: trades between two polls may have been missed. */
  readonly onGap?: (() => void) | undefined;
  /** Trade ids already had (a resumed recording's last ones): never emitted. */
  readonly known?: Iterable<number> | undefined;
}

/**
 * A market's public trades, each once, oldest first: the venue's recent-trades page (its last 100, newest first)
 * polled every `periodMs` on `scheduler`, de-duplicated by trade id (trade-dedup.ts). The first poll gives the
 * trades the page still lists. Cold: each subscriber polls on its own (the runtime shares one per market, polled
 * only while a strategy listens).
 */
export function tradesSource(
  fetch: (market: string) => Promise<readonly PublicTrade[]>,
  market: string,
  options: TradesSourceOptions,
  scheduler: SchedulerLike,
): Observable<PublicTrade> {
  return defer(() => {
    const seen = new TradeDeduper(options.known ?? []);
    return poll(() => fetch(market), {
      periodMs: options.periodMs,
      scheduler,
      // the fetch is the api's call itself
      startsRequest: true,
      ...(options.onError ? { onError: options.onError } : {}),
    }).pipe(
      mergeMap((page) => {
        const step = seen.accept(page);
        if (step.gap) options.onGap?.();
        return from(step.fresh);
      }),
    );
  });
}
