/**
 * One rate-limit bucket as a sliding log. A request counts from the moment it is admitted until
 * `windowMs` (+ margin) after its response came back. Why the response time and not the send time:
 * the request reaches the server somewhere between the two, so a slot released only `windowMs` after
 * the response guarantees that no `windowMs` window AT THE SERVER ever holds more than `limit`
 * arrivals, whatever the network latency or its jitter, while losing only one round trip per slot.
 */
export class WindowBucket {
  readonly limit: number;
  /** The venue's window plus the safety margin. */
  readonly windowMs: number;
  private inFlight = 0;
  /** Completion times, non-decreasing because the clock is monotonic; `head` skips expired ones. */
  private done: number[] = [];
  private head = 0;

  constructor(limit: number, windowMs: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`bucket limit must be a positive integer, got ${limit}`);
    if (!(windowMs > 0)) throw new RangeError(`bucket window must be > 0 ms, got ${windowMs}`);
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Requests that count at time `now`: in flight, or completed less than a window ago. */
  count(now: number): number {
    this.prune(now);
    return this.inFlight + (this.done.length - this.head);
  }

  /**
   * The earliest time a new request may be admitted: `now` when there is room; a later time when the
   * oldest completions must first leave the window; `undefined` when only in-flight requests fill
   * the bucket (then the next completion decides).
   */
  freeAt(now: number): number | undefined {
    // Room even counting every completion not yet pruned (pruning only lowers the count): the usual case, answered
    // without the walk over expired completions (a limit of hundreds per window is rarely approached).
    if (this.inFlight + (this.done.length - this.head) < this.limit) return now;
    const excess = this.count(now) - this.limit + 1;
    if (excess <= 0) return now;
    const completed = this.done.length - this.head;
    if (excess > completed) return undefined;
    return (this.done[this.head + excess - 1] as number) + this.windowMs;
  }

  admit(): void {
    this.inFlight += 1;
  }

  complete(now: number): void {
    this.inFlight -= 1;
    const last = this.done[this.done.length - 1];
    // a clock that is not monotonic must not break the ordering the log relies on
    this.done.push(last !== undefined && last > now ? last : now);
  }

  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    while (this.head < this.done.length && (this.done[this.head] as number) <= cutoff) this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.done.length) {
      this.done = this.done.slice(this.head);
      this.head = 0;
    }
  }
}
