// Steps a TestScheduler through virtual time while letting promises settle between due actions, the way the
// backtest drives the engine: sources whose fetches are promises cannot be flushed synchronously by marbles.
import type { TestScheduler } from 'rxjs/testing';
import type { Observable } from 'rxjs';

/** Lets every pending promise callback run (no timers involved in the promise chains under test). */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs every action due up to virtual time `t` (ms), settling promises after each, then sets the clock to `t`. */
export async function advanceTo(scheduler: TestScheduler, t: number): Promise<void> {
  await settle();
  for (let action = scheduler.actions[0]; action && action.delay <= t; action = scheduler.actions[0]) {
    scheduler.maxFrames = action.delay;
    scheduler.flush();
    await settle();
  }
  scheduler.frame = Math.max(scheduler.frame, t);
}

/** Subscribes and records `[virtual ms, value]` for every emission. */
export function record<T>(scheduler: TestScheduler, source: Observable<T>): { values: Array<[number, T]>; errors: unknown[]; stop(): void } {
  const values: Array<[number, T]> = [];
  const errors: unknown[] = [];
  const sub = source.subscribe({ next: (v) => values.push([scheduler.now(), v]), error: (e: unknown) => errors.push(e) });
  return { values, errors, stop: () => sub.unsubscribe() };
}
