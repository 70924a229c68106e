/**
 * A mark on scheduled work (the function given to `scheduler.schedule`) that says: running it starts exactly one
 * request, through the api, and queues nothing else (no microtask, no nextTick) while that request's promise is
 * pending - it only returns the promise, or chains on it with `then`, or awaits it. A poll's timer is such work
 * (poll.ts, `startsRequest`).
 *
 * Every scheduler ignores the mark except the replay's stepping scheduler (backtest/replay/stepping-scheduler.ts):
 * after a step it drains the microtask queue before time moves, and a step of marked work whose requests all went to
 * the virtual venue (which vouches that each promise it handed out is pending, nothing queued) left nothing to drain,
 * so the drain is skipped. A request made through anything else (a real client, a rate limiter's queue) is not
 * vouched for, and the step is drained as any other. Live, the mark changes nothing.
 */
export const STARTS_REQUEST: unique symbol = Symbol('starts one request');

/** Work marked with STARTS_REQUEST. */
export type RequestStarter<F> = F & { readonly [STARTS_REQUEST]: true };

/** Marks `work` (see STARTS_REQUEST) and returns it. */
export function startsRequest<F extends (...args: never[]) => unknown>(work: F): RequestStarter<F> {
  return Object.assign(work, { [STARTS_REQUEST]: true as const });
}

/** True when `work` carries the mark. */
export function isRequestStarter(work: unknown): boolean {
  return typeof work === 'function' && (work as Partial<Record<typeof STARTS_REQUEST, unknown>>)[STARTS_REQUEST] === true;
}
