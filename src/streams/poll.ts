import { Observable, type SchedulerLike, type Subscription } from 'rxjs';

/** Exponential backoff after failed calls: initialMs, then × factor per consecutive failure, capped at maxMs. */
export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor: number;
}

export interface PollOptions {
  /** Time between the starts of two successful calls, ms. A call slower than this delays the next (never overlaps). */
  readonly periodMs: number;
  /** Every wait runs on this scheduler (the engine's; virtual in backtests and tests). */
  readonly scheduler: SchedulerLike;
  /** Default `{ initialMs: 1000, maxMs: 30000, factor: 2 }`. */
  readonly backoff?: BackoffOptions;
  /** Told about every failed call (`attempt` = consecutive failures so far, from 1) and the delay before the retry. */
  readonly onError?: (error: unknown, attempt: number, retryInMs: number) => void;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 30_000, factor: 2 };

/** Delay before retry number `attempt` (1-based). Pure. */
export function backoffDelay(attempt: number, backoff: BackoffOptions = DEFAULT_BACKOFF): number {
  return Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** Math.max(0, attempt - 1));
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
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  if (!(periodMs > 0)) throw new RangeError(`poll: periodMs must be > 0, got ${periodMs}`);
  if (!(backoff.initialMs > 0 && backoff.maxMs >= backoff.initialMs && backoff.factor >= 1)) {
    throw new RangeError(`poll: backoff needs initialMs > 0, maxMs >= initialMs, factor >= 1, got ${JSON.stringify(backoff)}`);
  }

  return new Observable<T>((subscriber) => {
    let failures = 0;
    let timer: Subscription | undefined;
    const schedule = (delay: number) => {
      timer = scheduler.schedule(run, Math.max(0, delay));
    };
    const run = () => {
      if (subscriber.closed) return;
      const startedAt = scheduler.now();
      let pending: Promise<T>;
      try {
        pending = fetch();
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending.then(
        (value) => {
          if (subscriber.closed) return;
          failures = 0;
          subscriber.next(value);
          schedule(startedAt + periodMs - scheduler.now());
        },
        (error: unknown) => {
          if (subscriber.closed) return;
          failures += 1;
          const delay = backoffDelay(failures, backoff);
          try {
            onError?.(error, failures, delay);
          } catch {
            // A faulty error reporter must not stop the polling.
          }
          schedule(delay);
        },
      );
    };
    schedule(0);
    return () => timer?.unsubscribe();
  });
}
