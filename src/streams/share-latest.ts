import { ReplaySubject, Subject, share, type MonoTypeOperatorFunction } from 'rxjs';

/**
 * `ReplaySubject(1)` that keeps its one value in place: the replay subject pushes each value onto its buffer and then
 * splices the older one off (a removed-elements array made per value); with a buffer of one and no time window the
 * buffer after `next` is exactly `[value]` either way, so writing it there is the same state. Everything else
 * (subscribing, replaying, completing, erroring) is the replay subject's own.
 */
class LatestSubject<T> extends ReplaySubject<T> {
  constructor() {
    super(1);
  }

  override next(value: T): void {
    // ReplaySubject.next: push unless stopped, trim to one, then Subject.next
    if (!this.isStopped) (this as unknown as { readonly _buffer: T[] })._buffer[0] = value;
    Subject.prototype.next.call(this, value);
  }
}

/**
 * `shareReplay({ bufferSize: 1, refCount: true })`, exactly (the same `share` with the same resets), through a replay
 * subject that makes nothing per value: for the runtime's per-poll streams (a book every second of a replay).
 */
export function shareLatest<T>(): MonoTypeOperatorFunction<T> {
  return share<T>({ connector: () => new LatestSubject<T>(), resetOnError: true, resetOnComplete: false, resetOnRefCountZero: true });
}
