/**
 * Tells strategies their live orders changed: each strategy marked dirty is sent its orders once, after the current
 * task (see markDirty).
 */
export class OrdersNotifier {
  private dirty = new Set<string>();
  /** The other set: `dirty` and it swap at each flush (empty while not flushing), so a flush copies nothing. */
  private flushing = new Set<string>();
  private flushScheduled = false;

  /** `flush` sends one strategy its live orders. */
  constructor(private readonly flush: (strategyId: string) => void) {}

  markDirty(strategyId: string): void {
    this.dirty.add(strategyId);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Deferred to a microtask so a strategy never re-enters itself while its own intents are being handled (which
    // could place twice); not a timer, so it costs nothing on the tick-to-wire path and follows virtual time too.
    queueMicrotask(this.flushAll);
  }

  /** Sends each strategy marked so far once; one marked meanwhile (by a flush) is sent in a later microtask. */
  private readonly flushAll = (): void => {
    this.flushScheduled = false;
    const ids = this.dirty;
    this.dirty = this.flushing;
    this.flushing = ids;
    try {
      for (const id of ids) this.flush(id);
    } finally {
      ids.clear();
    }
  };
}
