/**
 * A virtual-time RxJS scheduler that the replay drives step by step: `now()` is the virtual clock,
 * `schedule(work, delay)` queues work at `now + delay`, and the driver alternates
 * `runNext()` (advance to the next due time and run every action due then) with letting promises
 * settle. Unlike RxJS's VirtualTimeScheduler it never runs ahead of the driver, so recorded events
 * (snapshots) can be interleaved with the engine's timers in time order.
 *
 * Ties run in the order they were scheduled (FIFO by sequence number), as real timers do.
 *
 * Work posted with `synchronous` declares that it runs to completion without settling a promise or queueing a
 * microtask (e.g. a request arriving at the virtual venue: it acts and posts the response). After a step that ran
 * only such work, `settleNeeded` is false and the driver may move on without a macrotask turn.
 *
 * Scheduled work marked as starting one request (src/streams/starts-request.ts: a poll's timer) is such work too when
 * it ran and the request it started was vouched for by the virtual venue (`postRequest`: its promise pending, nothing
 * queued): the step then left nothing to drain. Work that started no request, or one the venue did not vouch for (a
 * real client, a rate limiter's queue), needs the drain as any other.
 */
import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { isRequestStarter } from '../../src/streams/starts-request.js';

class SteppingAction<T> extends Subscription implements SchedulerAction<T> {
  due = 0;
  seq = 0;
  /** Position in the heap, -1 when not queued. */
  index = -1;
  state: T | undefined;

  readonly #scheduler: SteppingScheduler;
  readonly #work: (this: SchedulerAction<T>, state?: T) => void;
  /** Scheduled work may settle promises (only posted work declares otherwise, see `post`). */
  readonly synchronous = false;
  /** Marked work (starts-request.ts): synchronous when it started one request the venue vouched for. */
  readonly startsRequest: boolean;

  constructor(scheduler: SteppingScheduler, work: (this: SchedulerAction<T>, state?: T) => void) {
    super();
    this.#scheduler = scheduler;
    this.#work = work;
    this.startsRequest = isRequestStarter(work);
  }

  // Leaves the queue on unsubscribe (an override rather than a finalizer closure per action: the replay schedules
  // several actions per simulated request).
  override unsubscribe(): void {
    if (this.closed) return;
    this.#scheduler.remove(this);
    super.unsubscribe();
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.state = state;
    this.#scheduler.enqueue(this, delay);
    return this;
  }

  execute(): void {
    if (this.closed) return;
    this.#work.call(this, this.state);
  }
}

/**
 * Work queued with `post`: it cannot be cancelled, so it is no Subscription (cheaper to make: the virtual venue posts
 * two per request, the arrival and the response, hundreds of thousands per replayed day).
 */
class PostedWork<T> {
  due = 0;
  seq = 0;
  index = -1;
  readonly startsRequest = false;
  constructor(
    readonly work: (state: T) => void,
    readonly state: T,
    readonly synchronous: boolean,
  ) {}

  execute(): void {
    this.work(this.state);
  }
}

/**
 * Work that is its own queue entry (`postEntry`): an object that is posted again and again, e.g. a request to the
 * virtual venue posted for its arrival and then for its response, instead of a PostedWork per leg. `synchronous` is
 * read when the entry is taken off the queue, before `execute` runs.
 */
export interface PostedEntry {
  due: number;
  seq: number;
  /** -1 when not queued. */
  index: number;
  readonly synchronous: boolean;
  /** False for an entry (declared by `synchronous` alone); true only for marked scheduled work (SteppingAction). */
  readonly startsRequest: boolean;
  execute(): void;
}

/** What the heap holds: every kind orders by due time, then sequence. */
type Queued = SteppingAction<unknown> | PostedWork<unknown> | PostedEntry;

export class SteppingScheduler implements SchedulerLike {
  #now: number;
  #seq = 0;
  readonly #heap: Queued[] = [];
  #settleNeeded = false;
  /** Requests the venue vouched for so far (postRequest), to tell whether marked work started exactly one. */
  #vouched = 0;

  constructor(startMs: number) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    const action = new SteppingAction<T>(this, work);
    action.schedule(state, delay);
    return action;
  }

  /**
   * Queues `work(state)` at now + delay, for good: no handle to cancel it. `synchronous` declares that it runs to
   * completion without settling a promise or queueing a microtask (also when it posts more work): a step of only such
   * work leaves `settleNeeded` false. A false declaration would let promise continuations run after time moved on,
   * so only declare what is plainly synchronous. Same order as `schedule` (due time, then FIFO).
   */
  post<T>(work: (state: T) => void, delay: number, state: T, synchronous: boolean): void {
    this.enqueue(new PostedWork(work, state, synchronous), delay);
  }

  /** `post` for work that is its own queue entry (PostedEntry): nothing is made per post. The entry must not be queued. */
  postEntry(entry: PostedEntry, delay: number): void {
    this.enqueue(entry, delay);
  }

  /**
   * `postEntry` of a request's first leg, by an api vouching that the promise it hands out for the request is pending
   * and that it queued nothing (no microtask, no nextTick) to make it: the virtual venue's trip. Work marked as
   * starting a request (starts-request.ts) that started exactly one such request left nothing to drain.
   */
  postRequest(entry: PostedEntry, delay: number): void {
    this.#vouched += 1;
    this.enqueue(entry, delay);
  }

  /** False when the last `runNext` ran only work posted as synchronous (nothing for promises to settle). */
  get settleNeeded(): boolean {
    return this.#settleNeeded;
  }

  /** Due time of the next queued action, or undefined when nothing is queued. */
  nextDue(): number | undefined {
    return this.#heap[0]?.due;
  }

  get pending(): number {
    return this.#heap.length;
  }

  /** Moves the clock forward (never back) without running anything. */
  advanceTo(timeMs: number): void {
    if (timeMs > this.#now) this.#now = timeMs;
  }

  /**
   * Advances to the next due time (if not later than `limit`) and runs the actions due at it, including
   * ones they schedule with zero delay. Returns false when nothing was due by `limit`.
   */
  runNext(limit = Number.POSITIVE_INFINITY): boolean {
    const heap = this.#heap;
    const first = heap[0];
    if (first === undefined || first.due > limit) return false;
    this.advanceTo(first.due);
    this.#settleNeeded = false;
    for (let top: Queued | undefined = first; top !== undefined && top.due <= this.#now; top = heap[0]) {
      this.#pop(top);
      if (top.synchronous) top.execute();
      else if (top.startsRequest) {
        const vouched = this.#vouched;
        top.execute();
        // exactly its one request, vouched for: nothing was queued (none, or more, or one not vouched for: drain)
        if (this.#vouched !== vouched + 1) this.#settleNeeded = true;
      } else {
        this.#settleNeeded = true;
        top.execute();
      }
    }
    return true;
  }

  // ------------------------------------------------------------- heap internals (used by actions)

  enqueue(action: Queued, delay: number): void {
    if (action.index >= 0) this.remove(action);
    action.due = this.#now + Math.max(0, delay);
    action.seq = this.#seq++;
    this.#heap.push(action);
    this.#rise(this.#heap.length - 1, action);
  }

  remove(action: Queued): void {
    const i = action.index;
    if (i < 0) return;
    const last = this.#heap.pop()!;
    action.index = -1;
    if (last === action) return;
    // the last entry fills the hole: it sinks, or (when smaller than the hole's parent) rises
    this.#sink(i, last);
    if (last.index === i) this.#rise(i, last);
  }

  /** Takes the top (`top`, the root) off: the last entry fills the root and sinks. */
  #pop(top: Queued): void {
    const last = this.#heap.pop()!;
    top.index = -1;
    if (last !== top) this.#sink(0, last);
  }

  // The sifts move the hole, not the entry (one write per level, not a swap), and compare inline: a heap keeps the
  // entries ordered by (due, seq) however it moves them, and seq is unique, so the order of pops is the same.

  /** Puts `x` at hole `i` or above it, moving greater parents down. */
  #rise(i: number, x: Queued): void {
    const h = this.#heap;
    const due = x.due;
    const seq = x.seq;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const y = h[p]!;
      if (y.due < due || (y.due === due && y.seq < seq)) break;
      h[i] = y;
      y.index = i;
      i = p;
    }
    h[i] = x;
    x.index = i;
  }

  /** Puts `x` at hole `i` or below it, moving smaller children up. */
  #sink(i: number, x: Queued): void {
    const h = this.#heap;
    const n = h.length;
    const due = x.due;
    const seq = x.seq;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      let y = h[c]!;
      const r = c + 1;
      if (r < n) {
        const z = h[r]!;
        if (z.due < y.due || (z.due === y.due && z.seq < y.seq)) {
          c = r;
          y = z;
        }
      }
      if (due < y.due || (due === y.due && seq < y.seq)) break;
      h[i] = y;
      y.index = i;
      i = c;
    }
    h[i] = x;
    x.index = i;
  }
}
