import { RATE_LIMITS, type EndpointName, type RateBucket, type RateLimit } from '../../venue/wire.js';

/**
 * Sliding-window admission per client and bucket (exchange-facts §2): a request is admitted when,
 * for its endpoint's bucket and every shared bucket, fewer than `limit` requests were admitted in
 * the last `windowMs`. Refused requests are not counted (the venue rejects, it does not queue), so
 * a client that backs off gets through again once its window slides.
 */
export type RateLimitTable = Readonly<Record<RateBucket, RateLimit>>;

/** A FIFO of admission times; timestamps only grow, so expiry is a head pointer (amortised O(1)). */
class TimeLog {
  #times: number[] = [];
  #head = 0;

  countSince(from: number): number {
    while (this.#head < this.#times.length && (this.#times[this.#head] as number) < from) this.#head++;
    if (this.#head > 4096 && this.#head * 2 > this.#times.length) {
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
    return this.#times.length - this.#head;
  }

  push(t: number): void {
    this.#times.push(t);
  }
}

export class RateWindow {
  readonly #limits: RateLimitTable;
  readonly #logs = new Map<string, TimeLog>();

  constructor(overrides: Partial<Record<RateBucket, Partial<RateLimit>>> = {}) {
    const merged: Record<string, RateLimit> = {};
    for (const [bucket, base] of Object.entries(RATE_LIMITS)) {
      merged[bucket] = { ...base, ...(overrides[bucket as RateBucket] ?? {}) };
    }
    this.#limits = merged as RateLimitTable;
  }

  get limits(): RateLimitTable {
    return this.#limits;
  }

  /** Admits (and records) one request of `client` to `endpoint` at `nowMs`, or refuses it. */
  admit(client: string, endpoint: EndpointName, nowMs: number): boolean {
    const own = this.#limits[endpoint];
    const buckets: RateBucket[] = [endpoint, ...(own.shared ?? [])];
    const logs: TimeLog[] = [];
    for (const bucket of buckets) {
      const limit = this.#limits[bucket];
      const log = this.#log(client, bucket);
      if (log.countSince(nowMs - limit.windowMs) >= limit.limit) return false;
      logs.push(log);
    }
    for (const log of logs) log.push(nowMs);
    return true;
  }

  #log(client: string, bucket: RateBucket): TimeLog {
    const key = `${bucket}\u0000${client}`;
    let log = this.#logs.get(key);
    if (log === undefined) {
      log = new TimeLog();
      this.#logs.set(key, log);
    }
    return log;
  }
}
