import PQueue from 'p-queue';
import { BotError } from '../model/errors.js';
import { RATE_LIMITS, type EndpointName, type RateBucket, type RateLimit } from './wire.js';
import { WindowBucket } from './window-bucket.js';

/** Monotonic time and cancellable timers; injectable so tests run on a virtual clock. */
export interface LimiterClock {
  now(): number;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

export const realLimiterClock: LimiterClock = {
  now: () => performance.now(),
  setTimer(ms, fn) {
    const handle = setTimeout(fn, Math.max(0, Math.ceil(ms)));
    return () => clearTimeout(handle);
  },
};

export interface RateLimiterOptions {
  /** Limits per bucket. Default: the venue's table, `RATE_LIMITS` of wire.ts. */
  readonly limits?: Readonly<Record<RateBucket, RateLimit>>;
  /** Added to every window so timer granularity and boundary rounding at the server never tip it over. Default 50 ms. */
  readonly marginMs?: number;
  /** Default: `performance.now` and `setTimeout`. */
  readonly clock?: LimiterClock;
}

/** What the daemon reports about one bucket. */
export interface BucketStats {
  readonly bucket: RateBucket;
  readonly limit: number;
  readonly windowMs: number;
  /** Requests counting against the limit right now (in flight or completed within the window). */
  readonly inWindow: number;
  /** Requests waiting for admission on the endpoints that use this bucket. */
  readonly queued: number;
  /** Requests admitted since start. */
  readonly admitted: number;
  readonly waitMsLast: number;
  readonly waitMsMax: number;
  readonly waitMsMean: number;
}

interface WaitStats {
  admitted: number;
  last: number;
  max: number;
  total: number;
}

/** One endpoint's admission queue and the buckets it counts against (its own first, then the shared ones). */
interface Lane {
  readonly endpoint: EndpointName;
  readonly names: readonly RateBucket[];
  readonly queue: PQueue;
  readonly buckets: readonly WindowBucket[];
  readonly waits: readonly WaitStats[];
}

/** An endpoint's admission lane (`RateLimiter.laneFor`), for `admitNowOn` without a lookup per request (opaque). */
export interface AdmissionLane {
  readonly __lane: unique symbol;
}

/** A request admitted by `RateLimiter.admitNow`, to hand back to `completed` (opaque). */
export interface AdmittedSlot {
  readonly __admitted: unique symbol;
}

/** Rejects waiting requests when the limiter is closed. */
export class LimiterClosedError extends BotError {
  constructor() {
    super('rate limiter closed: the client was closed while the request waited for its turn', { code: 'ERR_LIMITER_CLOSED' });
  }
}

/**
 * Per-endpoint FIFO admission (p-queue, concurrency 1 for the admission step only, so requests still
 * run concurrently) in front of sliding-log buckets: the endpoint's own and the shared ones (`public`,
 * `mainAccount`). p-queue's own interval/intervalCap is a fixed window and would allow twice the
 * allowance across a window boundary; the buckets make the window slide.
 */
export class RateLimiter {
  private readonly limits: Readonly<Record<RateBucket, RateLimit>>;
  private readonly marginMs: number;
  private readonly clock: LimiterClock;
  private readonly buckets = new Map<RateBucket, WindowBucket>();
  private readonly lanes = new Map<EndpointName, Lane>();
  private readonly waits = new Map<RateBucket, WaitStats>();
  private readonly pausedUntil = new Map<EndpointName, number>();
  private readonly wakers = new Set<() => void>();
  private closed = false;

  constructor(options: RateLimiterOptions = {}) {
    const margin = options.marginMs ?? 50;
    if (!(margin >= 0) || !Number.isFinite(margin)) throw new RangeError(`marginMs must be a finite number >= 0, got ${margin}`);
    this.limits = options.limits ?? RATE_LIMITS;
    this.marginMs = margin;
    this.clock = options.clock ?? realLimiterClock;
  }

  /** Runs `task` once the endpoint and its shared buckets have room; the slot is held until it settles. */
  schedule<T>(endpoint: EndpointName, task: () => Promise<T>): Promise<T> {
    let lane: Lane;
    let enqueued: number;
    try {
      lane = this.laneOf(endpoint);
      enqueued = this.clock.now();
      const queue = lane.queue;
      // Fast path: nobody waits ahead of us and there is room, so FIFO holds without a trip through the queue. It
      // runs the task at once, without an async frame of its own: the caller's promise settles in the same microtask
      // turn as before (one reaction after the task's), with fewer promises made per request.
      if (queue.size + queue.pending === 0 && this.tryAdmit(lane, enqueued, enqueued) === true) return this.run(lane, task);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.queued(lane, enqueued, task);
  }

  /**
   * `schedule`'s fast path for a caller that settles its requests itself (the backtest's virtual venue): when nobody
   * waits ahead and every bucket has room, the request is admitted now and its slot held until the caller passes the
   * returned token to `completed` (when the request settles, where `schedule` would release it); undefined: nothing
   * was admitted, use `schedule`. Saves the promise `schedule` wraps around every request. Throws LimiterClosedError
   * when closed.
   */
  admitNow(endpoint: EndpointName): AdmittedSlot | undefined {
    return this.admitNowOn(this.laneOf(endpoint) as unknown as AdmissionLane);
  }

  /**
   * The lane `admitNow(endpoint)` admits on, for a caller that looks it up once (the virtual venue, per endpoint). It
   * is made on the first ask, as on the first request (the order `stats` lists the buckets in): ask it when the
   * first request is made, not before.
   */
  laneFor(endpoint: EndpointName): AdmissionLane {
    return this.laneOf(endpoint) as unknown as AdmissionLane;
  }

  /** `admitNow` on a lane from `laneFor`. */
  admitNowOn(admission: AdmissionLane): AdmittedSlot | undefined {
    const lane = admission as unknown as Lane;
    const queue = lane.queue;
    if (queue.size + queue.pending !== 0) return undefined;
    const now = this.clock.now();
    return this.tryAdmit(lane, now, now) === true ? (lane as unknown as AdmittedSlot) : undefined;
  }

  /** A request admitted by `admitNow` settled: its slot counts in the window from now. */
  completed(slot: AdmittedSlot): void {
    this.release(slot as unknown as Lane);
  }

  /** The slow path (as it always was): waits in the endpoint's FIFO until admitted, then runs the task. */
  private async queued<T>(lane: Lane, enqueued: number, task: () => Promise<T>): Promise<T> {
    await lane.queue.add(() => this.admit(lane, enqueued));
    try {
      return await task();
    } finally {
      this.release(lane);
    }
  }

  /** Runs an admitted task; its slot counts until the task settles (then the window starts). */
  private run<T>(lane: Lane, task: () => Promise<T>): Promise<T> {
    let pending: Promise<T>;
    try {
      pending = task();
    } catch (error) {
      this.release(lane);
      return Promise.reject(error);
    }
    return pending.then(
      (value) => {
        this.release(lane);
        return value;
      },
      (error: unknown) => {
        this.release(lane);
        throw error;
      },
    );
  }

  private release(lane: Lane): void {
    const now = this.clock.now();
    for (const b of lane.buckets) b.complete(now);
    if (this.wakers.size > 0) this.wake();
  }

  /** Holds back new admissions of `endpoint` for `ms` (after a 429). */
  pause(endpoint: EndpointName, ms: number): void {
    const until = this.clock.now() + ms;
    if (until > (this.pausedUntil.get(endpoint) ?? 0)) this.pausedUntil.set(endpoint, until);
  }

  stats(): BucketStats[] {
    const now = this.clock.now();
    const queued = new Map<RateBucket, number>();
    for (const { names, queue: q } of this.lanes.values()) {
      for (const name of names) queued.set(name, (queued.get(name) ?? 0) + q.size + q.pending);
    }
    return [...this.buckets].map(([bucket, b]) => {
      const w = this.waits.get(bucket) ?? { admitted: 0, last: 0, max: 0, total: 0 };
      return {
        bucket,
        limit: b.limit,
        windowMs: this.limits[bucket].windowMs,
        inWindow: b.count(now),
        queued: queued.get(bucket) ?? 0,
        admitted: w.admitted,
        waitMsLast: w.last,
        waitMsMax: w.max,
        waitMsMean: w.admitted === 0 ? 0 : w.total / w.admitted,
      };
    });
  }

  /** Drops queued requests (they reject with LimiterClosedError) and cancels timers. */
  close(): void {
    this.closed = true;
    // queued admissions still run, one by one, and each rejects at once (p-queue's clear() would leave them pending forever)
    this.wake();
  }

  private async admit(lane: Lane, start: number): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const wait = this.tryAdmit(lane, start, now);
      if (wait === true) return;
      await this.sleep(wait);
    }
  }

  /** Admits at once when every bucket has room (true); otherwise how long to wait (undefined: until a completion). */
  private tryAdmit(lane: Lane, start: number, now: number): true | number | undefined {
    if (this.closed) throw new LimiterClosedError();
    // no endpoint paused (the usual case): no lookup
    let at = this.pausedUntil.size === 0 ? now : Math.max(now, this.pausedUntil.get(lane.endpoint) ?? now);
    let blocked = false;
    for (const b of lane.buckets) {
      const free = b.freeAt(now);
      if (free === undefined) blocked = true;
      else at = Math.max(at, free);
    }
    if (!blocked && at <= now) {
      for (const b of lane.buckets) b.admit();
      this.recordWait(lane.waits, now - start);
      return true;
    }
    return blocked && at <= now ? undefined : at - now;
  }

  /** Resolves after `ms`, or earlier when any request completes (room may have appeared). */
  private sleep(ms: number | undefined): Promise<void> {
    return new Promise((resolve) => {
      let cancel: (() => void) | undefined;
      const done = (): void => {
        this.wakers.delete(done);
        cancel?.();
        resolve();
      };
      this.wakers.add(done);
      if (ms !== undefined) cancel = this.clock.setTimer(ms, done);
    });
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }

  private recordWait(waits: readonly WaitStats[], waited: number): void {
    for (const w of waits) {
      w.admitted += 1;
      w.last = waited;
      w.max = Math.max(w.max, waited);
      w.total += waited;
    }
  }

  /** The endpoint's queue, buckets and wait records, built once: schedule() runs on every request. */
  private laneOf(endpoint: EndpointName): Lane {
    let lane = this.lanes.get(endpoint);
    if (lane === undefined) {
      const names: RateBucket[] = [endpoint, ...(this.limits[endpoint].shared ?? [])];
      lane = {
        endpoint,
        names,
        queue: new PQueue({ concurrency: 1 }),
        buckets: names.map((name) => this.bucket(name)),
        waits: names.map((name) => this.waitStats(name)),
      };
      this.lanes.set(endpoint, lane);
    }
    return lane;
  }

  private bucket(name: RateBucket): WindowBucket {
    let b = this.buckets.get(name);
    if (b === undefined) {
      const rl = this.limits[name];
      b = new WindowBucket(rl.limit, rl.windowMs + this.marginMs);
      this.buckets.set(name, b);
    }
    return b;
  }

  private waitStats(name: RateBucket): WaitStats {
    let w = this.waits.get(name);
    if (w === undefined) this.waits.set(name, (w = { admitted: 0, last: 0, max: 0, total: 0 }));
    return w;
  }
}
