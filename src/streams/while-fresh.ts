import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { StaleStatus } from './detect-stale.js';

/**
 * Passes the source's values only while `status$` (from `detectStale`) says the data is fresh; values arriving while
 * stale are dropped. Used to pause a strategy on stale data: give it `book$.pipe(whileFresh(bookStatus$))`, so it
 * never quotes from a frozen book. Fresh until `status$` says otherwise. Completes and errors with the source.
 */
export function whileFresh<T>(status$: Observable<StaleStatus>): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let stale = false;
      const statusSub = status$.subscribe({
        next: (s) => {
          stale = s.stale;
        },
        error: (error: unknown) => subscriber.error(error),
      });
      const sub = source.subscribe({
        next: (value) => {
          if (!stale) subscriber.next(value);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        statusSub.unsubscribe();
        sub.unsubscribe();
      };
    });
}
