/**
 * Tells strategies their live orders changed: each strategy marked dirty is sent its orders once, after the current
 * task (see markDirty).
 */
export class OrdersNotifier {
  private readonly dirty = new Set<string>();
  private flushScheduled = false;

  /** `flush` sends one strategy its live orders. */
  constructor(private readonly flush: (strategyId: string) => void) {}

  markDirty(strategyId: string): void {
    this.dirty.add(strategyId);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Deferred to a microtask so a strategy never re-enters itself while its own intents are being handled (which
    // could place twice); not a timer, so it costs nothing on the tick-to-wire path and follows virtual time too.
    queueMicrotask(() => {
      this.flushScheduled = false;
      const ids = [...this.dirty];
      this.dirty.clear();
      for (const id of ids) this.flush(id);
    });
  }
}
