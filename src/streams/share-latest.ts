import { ReplaySubject, Subject, config, share, type MonoTypeOperatorFunction, type Observer } from 'rxjs';

/** Subject's internals that its `next` reads (rxjs 7.8; not in its typings). */
interface SubjectInternals<T> {
  readonly _buffer: T[];
  currentObservers: Observer<T>[] | null;
  _throwIfClosed(): void;
}

/**
 * Whether this rxjs has the internals LatestSubject reads (rxjs 7.8's; package.json allows later 7.x): checked once
 * on a fresh subject, so a release that renamed one makes LatestSubject the replay subject itself, not a subject
 * that reaches only the observers of its first value.
 */
const INTERNALS_KNOWN = ((): boolean => {
  const probe = new ReplaySubject<unknown>(1) as unknown as Partial<SubjectInternals<unknown>>;
  return Array.isArray(probe._buffer) && 'currentObservers' in probe && typeof probe._throwIfClosed === 'function';
})();

/**
 * `ReplaySubject(1)` that keeps its one value in place: the replay subject pushes each value onto its buffer and then
 * splices the older one off (a removed-elements array made per value); with a buffer of one and no time window the
 * buffer after `next` is exactly `[value]` either way, so writing it there is the same state. Everything else
 * (subscribing, replaying, completing, erroring) is the replay subject's own.
 */
class LatestSubject<T> extends ReplaySubject<T> {
  constructor(
    /** Values that fail it are dropped before they reach the subject (see shareLatest's `admits`). */
    private readonly admits: ((value: T) => boolean) | undefined,
  ) {
    super(1);
  }

  override next(value: T): void {
    if (this.admits !== undefined && !this.admits(value)) return;
    if (!INTERNALS_KNOWN) {
      super.next(value);
      return;
    }
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
 *
 * With `admits`: exactly `filter`-by-state then shareLatest, i.e. a stateful filter operator (one state per
 * subscription of it, made by calling `admits`) before the share, without that operator's subscriber layer between the
 * source and the subject (the runtime's sanity check of every polled book, streams/sane-books.ts). The share makes one
 * subscription upstream per connection and a new subject with each, and drops both together on every reset (refCount
 * zero, an error), so a state per subject is a state per upstream subscription. A throw of the test reaches the same
 * handler it would reach in the operator: the subscriber of the source that delivered the value (RxJS reports it as
 * unhandled and the stream goes on).
 */
export function shareLatest<T>(admits?: () => (value: T) => boolean): MonoTypeOperatorFunction<T> {
  return share<T>({ connector: () => new LatestSubject<T>(admits?.()), resetOnError: true, resetOnComplete: false, resetOnRefCountZero: true });
}
