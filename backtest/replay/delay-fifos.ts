/**
 * The stepping scheduler's queue for posted work (stepping-scheduler.ts `post`, `postEntry`, `postRequest`): work that
 * is never cancelled, most of it a request's legs to and from the virtual venue, each at now + the one latency.
 *
 * Work of one delay is queued in due order: its due time is now + that delay, the clock never goes back, and each
 * entry's sequence number is greater than every earlier one's. So a FIFO per distinct delay holds its entries in
 * (due, seq) order, and the least of the FIFOs' heads, compared with the heap's top by (due, seq), is the entry one
 * heap of everything would give next: the same order, with a push and a shift per entry instead of heap sifts.
 * A run posts with one or two delays (the latencies); past MAX_FIFOS distinct delays the rest goes to the heap.
 */

/** What a FIFO holds: the scheduler's entries, ordered by due time, then sequence. */
export interface Timed {
  readonly due: number;
  readonly seq: number;
}

const MAX_FIFOS = 4;

class Fifo<E> {
  items: E[] = [];
  head = 0;
  constructor(readonly delay: number) {}
}

export class DelayFifos<E extends Timed> {
  readonly #fifos: Fifo<E>[] = [];
  /** The FIFO whose head `least` returned last. */
  #least: Fifo<E> | undefined;
  #size = 0;

  /** Entries queued. */
  get size(): number {
    return this.#size;
  }

  /**
   * Queues `entry` (its due time set to now + `delay`, and a sequence number above every entry's so far) behind the
   * entries of the same delay. False when it has no FIFO of that delay and no room for one (queue it elsewhere).
   */
  add(entry: E, delay: number): boolean {
    let fifo: Fifo<E> | undefined;
    for (const f of this.#fifos) {
      if (f.delay === delay) {
        fifo = f;
        break;
      }
    }
    if (fifo === undefined) {
      if (this.#fifos.length >= MAX_FIFOS) return false;
      fifo = new Fifo<E>(delay);
      this.#fifos.push(fifo);
    }
    fifo.items.push(entry);
    this.#size += 1;
    return true;
  }

  /** The entry of least (due, seq) among the FIFOs' heads, or undefined when none is queued. */
  least(): E | undefined {
    let best: E | undefined;
    let from: Fifo<E> | undefined;
    for (const f of this.#fifos) {
      if (f.head === f.items.length) continue;
      const e = f.items[f.head]!;
      if (best === undefined || e.due < best.due || (e.due === best.due && e.seq < best.seq)) {
        best = e;
        from = f;
      }
    }
    this.#least = from;
    return best;
  }

  /** Takes off the entry `least` just returned (nothing queued or taken in between). */
  takeLeast(): void {
    const f = this.#least!;
    f.head += 1;
    this.#size -= 1;
    // an emptied FIFO starts over; one that never empties drops its taken part now and then
    if (f.head === f.items.length) {
      f.items.length = 0;
      f.head = 0;
    } else if (f.head > 1024 && f.head * 2 > f.items.length) {
      f.items = f.items.slice(f.head);
      f.head = 0;
    }
  }
}
