/**
 * Tells strategies their live orders changed: each strategy marked dirty is sent its orders once, after the current
 * task (see markDirty).
 */
export class OrdersNotifier {
  /**
   * The first strategy marked since the last flush (undefined: none), apart from `dirty`, the others in the order they
   * were marked: one strategy is the usual flush (every change of an order marks its owner), sent without a set's
   * insertion and walk.
   */
  private first: string | undefined;
  private dirty = new Set<string>();
  /** The other set: `dirty` and it swap at each flush (empty while not flushing), so a flush copies nothing. */
  private flushing = new Set<string>();
  private flushScheduled = false;

  /** `flush` sends one strategy its live orders. */
  constructor(private readonly flush: (strategyId: string) => void) {}

  markDirty(strategyId: string): void {
    if (this.first === undefined) this.first = strategyId;
    else if (strategyId !== this.first) this.dirty.add(strategyId);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Deferred to a microtask so a strategy never re-enters itself while its own intents are being handled (which
    // could place twice); not a timer, so it costs nothing on the tick-to-wire path and follows virtual time too.
    // A reaction to a settled promise is a job of the same microtask queue, in the same place, as queueMicrotask's
    // (which wraps each callback in an AsyncResource and a bound function: about 3x the cost, on every change of an
    // order); the async context it runs in is the one current here, as queueMicrotask's.
    void SETTLED.then(this.flushAll);
  }

  /** Sends each strategy marked so far once; one marked meanwhile (by a flush) is sent in a later microtask. */
  private readonly flushAll = (): void => {
    this.flushScheduled = false;
    const first = this.first;
    this.first = undefined;
    const ids = this.dirty;
    this.dirty = this.flushing;
    this.flushing = ids;
    try {
      if (first !== undefined) this.flush(first);
      if (ids.size > 0) for (const id of ids) this.flush(id);
    } catch (error) {
      // a throw here is the process's uncaught exception, as it was from queueMicrotask's callback, not a rejection of
      // the reaction's promise
      queueMicrotask(() => {
        throw error;
      });
    } finally {
      if (ids.size > 0) ids.clear();
    }
  };
}

const SETTLED: Promise<void> = Promise.resolve();
