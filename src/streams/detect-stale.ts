import { Observable, type OperatorFunction, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * The engine's default stale time for a book polled every `bookMs`: three polls missed, and never under 5 s (a
 * venue's hiccup of a few seconds is not worth cancelling every quote for).
 */
export function defaultStaleAfterMs(bookMs: number): number {
  return Math.max(3 * bookMs, 5000);
}

/** A change of freshness. Emitted only on transitions: fresh → stale and stale → fresh. */
export interface StaleStatus {
  readonly stale: boolean;
  /** Scheduler time of the transition, ms. */
  readonly at: number;
  /** Scheduler time of the last fresh value (the subscription time before any), ms. */
  readonly lastFreshAt: number;
}

export interface DetectStaleOptions<T> {
  /** Stale when nothing fresh arrived for this long, ms. */
  readonly staleAfterMs: number;
  readonly scheduler: SchedulerLike;
  /**
   * What makes a value fresh: a value whose key equals the previous value's key is a repeat, not news (e.g.
   * `(book) => book.timestamp`: a poll returning the same snapshot again). Default: every value is fresh.
   */
  readonly freshnessKey?: (value: T) => unknown;
  /**
   * The same test as a comparison of the previous value with the new one (true = a repeat, not news); cheaper than
   * building a key per value on a hot stream. Used instead of `freshnessKey` when both are given.
   */
  readonly isRepeat?: (previous: T, next: T) => boolean;
}

/**
 * Watches a source and emits a StaleStatus when it goes stale (no fresh value for `staleAfterMs`, counted from
 * subscription or the last fresh value) and when it recovers. The source's values are not passed through: use it
 * beside the source (`book$.pipe(detectStale({...}))`) to pause strategies or raise an alert. Completes with the
 * source; a source error is forwarded.
 */
export function detectStale<T>(options: DetectStaleOptions<T>): OperatorFunction<T, StaleStatus> {
  const { staleAfterMs, scheduler, freshnessKey, isRepeat } = options;
  if (!(staleAfterMs > 0)) throw new RangeError(`detectStale: staleAfterMs must be > 0, got ${staleAfterMs}`);
  return (source) =>
    new Observable<StaleStatus>((subscriber) => {
      let lastFreshAt = scheduler.now();
      let stale = false;
      let hasKey = false;
      let lastKey: unknown;
      let lastValue: T | undefined;
      let timer: (Subscription & Partial<Pick<SchedulerAction<unknown>, 'schedule'>>) | undefined;

      // One timer, re-armed lazily: a fresh value only moves `lastFreshAt`; when the timer fires early (fresh values
      // came meanwhile) it waits again for the rest. Re-arming on every value cost a timer cancel and a new timer per
      // book snapshot; the stale status still comes exactly `staleAfterMs` after the last fresh value. Waiting again
      // reschedules the action that just ran (RxJS's own recursive `action.schedule(state, delay)`: the same wait from
      // now, queued as a new one would be), not a new action every few polls; a handle that is no action gets a new one.
      const check = (): void => {
        const ran = timer;
        timer = undefined;
        const left = lastFreshAt + staleAfterMs - scheduler.now();
        if (left > 0) {
          timer = ran?.schedule !== undefined && !ran.closed ? ran.schedule(undefined, left) : scheduler.schedule(check, left);
          return;
        }
        stale = true;
        subscriber.next({ stale: true, at: scheduler.now(), lastFreshAt });
      };
      const arm = (): void => {
        if (timer === undefined) timer = scheduler.schedule(check, staleAfterMs);
      };

      arm();
      const sub = source.subscribe({
        next: (value) => {
          if (isRepeat) {
            if (hasKey && isRepeat(lastValue as T, value)) return;
            hasKey = true;
            lastValue = value;
          } else if (freshnessKey) {
            const key = freshnessKey(value);
            if (hasKey && Object.is(key, lastKey)) return;
            hasKey = true;
            lastKey = key;
          }
          lastFreshAt = scheduler.now();
          if (stale) {
            stale = false;
            subscriber.next({ stale: false, at: lastFreshAt, lastFreshAt });
          }
          arm();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        timer?.unsubscribe();
        sub.unsubscribe();
      };
    });
}
