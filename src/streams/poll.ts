import { Observable, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from '../model/backoff.js';
import { startsRequest } from './starts-request.js';

export interface PollOptions {
  /** Time between the starts of two successful calls, ms. A call slower than this delays the next (never overlaps). */
  readonly periodMs: number;
  /** Every wait runs on this scheduler (the engine's; virtual in backtests and tests). */
  readonly scheduler: SchedulerLike;
  /** Retries after a failed call back off by the one policy (model/backoff.ts); default DEFAULT_BACKOFF, no jitter. */
  readonly backoff?: BackoffOptions;
  /** Told about every failed call (`attempt` = consecutive failures so far, from 1) and the delay before the retry. */
  readonly onError?: (error: unknown, attempt: number, retryInMs: number) => void;
  /**
   * `fetch()` starts exactly one request and queues nothing else while its promise is pending (it returns the api's
   * promise, or chains on it, or awaits it): the poll's timer is then marked as such work (starts-request.ts), which
   * lets a replay skip the drain after a step of such timers. Only declare what is plainly so. Default false.
   */
  readonly startsRequest?: boolean;
}

/**
 * Calls `fetch` at subscription and then every `periodMs`, emitting each result. Calls never overlap: the next one
 * is scheduled when the previous settles, at `start + periodMs` (or at once when the call took longer). A failed call
 * is reported through `onError` and retried with exponential backoff; the stream never errors because of it and
 * returns to the normal period after the next success. All waiting goes through `scheduler`, never setTimeout,
 * so it runs unchanged on virtual time (the promise may resolve through real I/O or a virtual venue).
 * Cold: each subscriber polls on its own; share it (book-source.ts and deals-source.ts do) to poll once for many.
 */
export function poll<T>(fetch: () => Promise<T>, options: PollOptions): Observable<T> {
  const { periodMs, scheduler, onError } = options;
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  if (!(periodMs > 0)) throw new RangeError(`poll: periodMs must be > 0, got ${periodMs}`);
  if (!(backoff.baseMs > 0 && backoff.maxMs >= backoff.baseMs && backoff.factor >= 1)) {
    throw new RangeError(`poll: backoff needs baseMs > 0, maxMs >= baseMs, factor >= 1, got ${JSON.stringify(backoff)}`);
  }

  return new Observable<T>((subscriber) => {
    let failures = 0;
    // The timer: the action the scheduler made for it (what `schedule` returns on RxJS's schedulers and the replay's),
    // rescheduled for the next call (RxJS's own recursive `action.schedule(state, delay)`: the same timer at the same
    // time), not a new action per period (a replay polls every second). A closed one (the subscriber left), or a
    // handle that is no action, gets a new one.
    let timer: (Subscription & Partial<Pick<SchedulerAction<unknown>, 'schedule'>>) | undefined;
    const schedule = (delay: number) => {
      const after = Math.max(0, delay);
      timer = timer?.schedule !== undefined && !timer.closed ? timer.schedule(undefined, after) : scheduler.schedule(run, after);
    };
    // The start of the call in flight: calls never overlap, so the two settle handlers are made once, not per call.
    let startedAt = 0;
    const fulfilled = (value: T): void => {
      if (subscriber.closed) return;
      failures = 0;
      subscriber.next(value);
      schedule(startedAt + periodMs - scheduler.now());
    };
    const rejected = (error: unknown): void => {
      if (subscriber.closed) return;
      failures += 1;
      const delay = backoffDelay(failures, backoff);
      try {
        onError?.(error, failures, delay);
      } catch {
        // A faulty error reporter must not stop the polling.
      }
      schedule(delay);
    };
    // Given `startsRequest`, a run starts one request and queues nothing: fetch() does so, and `then` on its pending
    // promise queues nothing either (a closed subscriber's run starts none: not vouched for, so drained as before).
    const run = (): void => {
      if (subscriber.closed) return;
      startedAt = scheduler.now();
      let pending: Promise<T>;
      try {
        pending = fetch();
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending.then(fulfilled, rejected);
    };
    if (options.startsRequest === true) startsRequest(run);
    schedule(0);
    return () => timer?.unsubscribe();
  });
}
