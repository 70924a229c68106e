/**
 * The changes that left an order finished, oldest first: the order and its `updatedAt` then. The tracker's prune takes
 * the entries older than its cut-off instead of walking every order it keeps on every balance poll. An entry whose
 * order changed again since is stale (a later entry has the order); the reader tells it by `updatedAt`.
 *
 * Oldest first only while the times added never go back (a live daemon's wall clock may): once one does (or is NaN),
 * the queue is `ordered` no more, keeps nothing, and its reader walks every order as it did before.
 */
export class FinishedQueue<T> {
  #orders: T[] = [];
  #at: number[] = [];
  #head = 0;
  #last = Number.NEGATIVE_INFINITY;
  #ordered = true;

  get ordered(): boolean {
    return this.#ordered;
  }

  /** `o` was left finished by a change at `at`. */
  add(o: T, at: number): void {
    if (!this.#ordered) return;
    if (!(at >= this.#last)) {
      this.#ordered = false;
      this.#orders = [];
      this.#at = [];
      this.#head = 0;
      return;
    }
    this.#last = at;
    this.#orders.push(o);
    this.#at.push(at);
  }

  /** Removes every entry added at a time before `beforeMs` (the oldest first), handing each to `visit`. */
  takeBefore(beforeMs: number, visit: (o: T, at: number) => void): void {
    const orders = this.#orders;
    const at = this.#at;
    let head = this.#head;
    while (head < orders.length && at[head]! < beforeMs) {
      const o = orders[head]!;
      const t = at[head]!;
      // the slot is let go at once: a finished order is not held here past its prune
      orders[head] = undefined as T;
      head += 1;
      visit(o, t);
    }
    // the taken front is cut off once it is most of the arrays, so they stay about as long as the entries kept
    if (head > 1024 && head * 2 > orders.length) {
      orders.splice(0, head);
      at.splice(0, head);
      head = 0;
    }
    this.#head = head;
  }
}
