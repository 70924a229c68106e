/**
 * A map keyed by client order id that the account keeps for every id of the day (the ids used, the deals by id).
 * As a Map of 11k strings, each look-up of a new id was ~0.8 µs in the replay: the table and the strings in its
 * chains are out of the cache by the next order, and a miss reads them all. The engine's ids are `<head><seq>`
 * (`mm-lz3k9q1c-1f`: a head that ends in a dash, then a base-36 counter; src/engine/client-order-ids.ts), so an id
 * of a known head is kept in an array by its counter: one read, the id itself compared only with its head.
 *
 * Exactly a Map's answers: an id's head is everything through its last dash, so it has at most one; within a head,
 * canonical base-36 tails (no leading zero) and numbers are one to one. Any other id (no dash, another tail, a fifth
 * head, a counter past LIMIT) is kept in the Map. A head is made when its first id is set, so no id of it is in the
 * Map before (heads are never dropped, and none is made once there are MAX_HEADS).
 */

const MAX_HEADS = 4;
/** Counters below this are kept by index: a dense array (4 MB of slots at most), never a sparse one. */
const LIMIT = 1 << 20;

interface Head<V> {
  readonly text: string;
  readonly bySeq: (V | undefined)[];
}

export class ClientIdIndex<V> {
  readonly #other = new Map<string, V>();
  readonly #heads: Head<V>[] = [];

  // A head that starts the id but leaves no counter is passed over, not an answer: `mm-` starts `mm-x-1`, of `mm-x-`.
  get(id: string): V | undefined {
    for (const h of this.#heads) {
      if (id.startsWith(h.text)) {
        const n = seqOf(id, h.text.length);
        if (n >= 0) return h.bySeq[n];
      }
    }
    return this.#other.get(id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** `value` must not be undefined (has() reads it as absent). */
  set(id: string, value: V): void {
    for (const h of this.#heads) {
      if (id.startsWith(h.text)) {
        const n = seqOf(id, h.text.length);
        if (n >= 0) {
          h.bySeq[n] = value;
          return;
        }
      }
    }
    if (this.#heads.length < MAX_HEADS) {
      const dash = id.lastIndexOf('-');
      const n = dash < 0 ? -1 : seqOf(id, dash + 1);
      if (n >= 0) {
        const head: Head<V> = { text: id.slice(0, dash + 1), bySeq: [] };
        // not matched above: a known head would have taken the id (its head is unique), so this one is new
        this.#heads.push(head);
        head.bySeq[n] = value;
        return;
      }
    }
    this.#other.set(id, value);
  }
}

/**
 * The base-36 number of `id` from `from` on, when that tail is canonical (digits and lower-case letters, no leading
 * zero but "0" itself) and below LIMIT; otherwise -1.
 */
export function seqOf(id: string, from: number): number {
  const end = id.length;
  if (from >= end || (id.charCodeAt(from) === 48 && end - from > 1)) return -1;
  let n = 0;
  for (let i = from; i < end; i++) {
    const c = id.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 122 ? c - 87 : -1;
    if (digit < 0) return -1;
    n = n * 36 + digit;
    if (n >= LIMIT) return -1;
  }
  return n;
}
