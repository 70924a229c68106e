import { ReplaySubject, Subject, config, share, type MonoTypeOperatorFunction, type Observer } from 'rxjs';

/** Subject's internals that its `next` reads (rxjs 7.8; not in its typings). */
interface SubjectInternals<T> {
  readonly _buffer: T[];
  currentObservers: Observer<T>[] | null;
  _throwIfClosed(): void;
}

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
    const self = this as unknown as SubjectInternals<T>;
    // ReplaySubject.next: push unless stopped, trim to one, then Subject.next
    if (!this.isStopped) self._buffer[0] = value;
    // Subject.next's own steps, without the closure it hands errorContext (which only calls it when the deprecated
    // synchronous error handling is off) and the down-levelled iterator over the observers (the CJS build's __values):
    // a loop by index over the same array, which Subject never changes in place (a subscribe or unsubscribe drops it
    // for a new copy), so every observer that it would reach is reached, in the same order.
    if (config.useDeprecatedSynchronousErrorHandling) {
      Subject.prototype.next.call(this, value);
      return;
    }
    self._throwIfClosed();
    if (this.isStopped) return;
    const observers = (self.currentObservers ??= Array.from(this.observers));
    for (let i = 0; i < observers.length; i++) observers[i]!.next(value);
  }
}

/**
 * `shareReplay({ bufferSize: 1, refCount: true })`, exactly (the same `share` with the same resets), through a replay
 * subject that makes nothing per value: for the runtime's per-poll streams (a book every second of a replay).
 */
export function shareLatest<T>(): MonoTypeOperatorFunction<T> {
  return share<T>({ connector: () => new LatestSubject<T>(), resetOnError: true, resetOnComplete: false, resetOnRefCountZero: true });
}
