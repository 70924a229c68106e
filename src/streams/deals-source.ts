import { Observable, share, type SchedulerLike } from 'rxjs';
import type { Deal } from '../model/order.js';
import type { DealsQuery, TradingApi } from '../venue/trading-api.js';
import { DealTracker, type DealTrackerOptions } from './deal-tracker.js';
import { poll, type PollOptions } from './poll.js';

export interface DealsSourceOptions extends DealTrackerOptions, Pick<PollOptions, 'backoff' | 'onError'> {
  readonly periodMs: number;
}

/**
 * The account's deals in `market`, each NEW deal exactly once (deduplicated by id), oldest first, paging back so
 * none is missed between polls. Without `since`/`knownIds` the first poll reports the history it finds (up to
 * `maxPages`): after a restart that is how fills made while down are learnt; the consumer dedupes against its
 * journal. Hot and shared (refCount): many subscribers, one poll; a late subscriber sees only later deals.
 */
export function dealsSource(api: TradingApi, market: string, options: DealsSourceOptions, scheduler: SchedulerLike): Observable<Deal> {
  const { periodMs, backoff, onError, ...trackerOptions } = options;
  // One tracker per subscription of the underlying poll: a resubscription after refCount drops to 0 starts afresh.
  // Each poll's deals are emitted one by one in a loop (what `concatMap((deals) => from(deals))` did, without an
  // inner subscription per poll: the poll only emits from a settled promise, so a batch never arrives mid-batch).
  return new Observable<Deal>((subscriber) => {
    const tracker = new DealTracker(trackerOptions);
    // made once, not per poll (every second); so is the first page's query (the api only reads it)
    let first: DealsQuery | undefined;
    const page = (offset: number, limit: number): Promise<readonly Deal[]> => {
      if (offset !== 0) return api.deals({ market, offset, limit });
      if (first?.limit !== limit) first = Object.freeze({ market, offset, limit });
      return api.deals(first);
    };
    return poll(() => tracker.fetchNew(page), {
      periodMs,
      scheduler,
      // fetchNew asks for the first page and chains on it (the pages after it are asked for once it settled)
      startsRequest: true,
      ...(backoff ? { backoff } : {}),
      ...(onError ? { onError } : {}),
    }).subscribe({
      next: (deals) => {
        for (const deal of deals) {
          if (subscriber.closed) return;
          subscriber.next(deal);
        }
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
  }).pipe(share());
}
