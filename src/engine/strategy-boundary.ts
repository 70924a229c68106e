import { AsyncLocalStorage } from 'node:async_hooks';
import { Observable } from 'rxjs';

/** One strategy instance as its boundary knows it: who it is, and how it is stopped when its code fails. */
export interface StrategyScope {
  readonly strategyId: string;
  /** Stops that strategy alone: unsubscribed, its orders cancelled, the failure journalled and alerted. */
  fail(error: unknown): void;
}

/**
 * The line between a strategy's code and the engine's. Code that runs inside a scope carries it into every callback,
 * timer and promise it starts, so a failure surfacing later (an exception thrown in a subscribe callback, which RxJS
 * rethrows on a timer; a rejected promise nobody awaited) can be traced back to the strategy that caused it and stop
 * that strategy alone: the daemon's process-level handlers ask `current()`. Engine work a strategy's emission triggers
 * runs through `exit`, so an engine failure is never blamed on a strategy (it is the daemon's emergency stop).
 */
export interface StrategyBoundary {
  run<T>(scope: StrategyScope, fn: () => T): T;
  exit<T>(fn: () => T): T;
  /** The scope of the code running now, or of the callback, timer or promise whose failure is being handled. */
  current(): StrategyScope | undefined;
  /** Wraps a stream given to the strategy so that each value, error and completion reaches its code inside `scope`. */
  deliver<T>(scope: StrategyScope, source: Observable<T>): Observable<T>;
}

/**
 * No boundary: what a backtest runs with. A strategy's error notification still stops it alone (the engine subscribes
 * to its intents with an error handler); an exception thrown outside the stream ends the process, as a research run
 * should. Free: AsyncLocalStorage, once used, makes every promise of the process slower (about 2.5× per await on
 * Node 20), which a replay of a day of books would pay at every step.
 */
export const NO_BOUNDARY: StrategyBoundary = {
  run: (_scope, fn) => fn(),
  exit: (fn) => fn(),
  current: () => undefined,
  deliver: (_scope, source) => source,
};

/** The daemon's boundary, on Node's AsyncLocalStorage (the store follows timers and promises). */
export function asyncLocalBoundary(): StrategyBoundary {
  const store = new AsyncLocalStorage<StrategyScope>();
  const run = <T>(scope: StrategyScope, fn: () => T): T => store.run(scope, fn);
  return {
    run,
    exit: (fn) => store.exit(fn),
    current: () => store.getStore(),
    deliver: <T>(scope: StrategyScope, source: Observable<T>): Observable<T> =>
      new Observable<T>((subscriber) =>
        source.subscribe({
          next: (value) => run(scope, () => subscriber.next(value)),
          error: (error: unknown) => run(scope, () => subscriber.error(error)),
          complete: () => run(scope, () => subscriber.complete()),
        }),
      ),
  };
}
