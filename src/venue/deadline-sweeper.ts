/** Anything that can be called off, like one request in flight (http-transport.ts). */
export interface Cancellable {
  cancel(): void;
}

/**
 * Whole-request timeouts for one HTTP transport with a single coarse timer instead of got's
 * per-request timers and socket listeners (measurable per request on the order path). All requests
 * share one timeout, so the in-flight map (insertion order) is also deadline order: a sweep stops at
 * the first request still in time. A request is called off at most `tickMs` after its deadline; the
 * tick is a tenth of the timeout, between 5 and 250 ms. The timer is unref'd and stops on the first
 * sweep that finds nothing in flight.
 */
export class DeadlineSweeper {
  readonly timeoutMs: number;
  readonly tickMs: number;
  private readonly now: () => number;
  private readonly inFlight = new Map<Cancellable, number>();
  private readonly expired = new WeakSet<Cancellable>();
  private timer: NodeJS.Timeout | undefined;

  constructor(timeoutMs: number, now: () => number = () => performance.now()) {
    this.timeoutMs = timeoutMs;
    this.tickMs = Math.min(250, Math.max(5, timeoutMs / 10));
    this.now = now;
  }

  /** Starts the clock of one request; call `settle` when it ends, whichever way. */
  watch(request: Cancellable): void {
    this.inFlight.set(request, this.now() + this.timeoutMs);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.sweep(), this.tickMs);
      this.timer.unref();
    }
  }

  /** Stops the clock; true when the request had been called off for being late. */
  settle(request: Cancellable): boolean {
    this.inFlight.delete(request);
    return this.expired.has(request);
  }

  /** Calls off every request past its deadline. */
  sweep(): void {
    const now = this.now();
    for (const [request, deadline] of this.inFlight) {
      if (deadline > now) return;
      this.inFlight.delete(request);
      this.expired.add(request);
      request.cancel();
    }
    if (this.inFlight.size === 0) this.stop();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
