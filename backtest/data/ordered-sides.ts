/**
 * Which book sides of a cache block are in order (asks rising, bids falling, equal neighbours allowed), in the ticks
 * of one tick scale: worked out per book on its first level scan, one pass over that book's prices. On an
 * ordered side the fill model's scan for a price (RecordedSnapshot.levelIndexAt: the first level at the price, given
 * up at the first level past it) is a binary search: the levels before the first one at or past the price are all
 * short of it, so that level decides, as the scan's walk would have. A side out of order (a venue's lie) is scanned.
 */
/** What the check reads of a cache block (cache-block.ts; named by shape, so the two files do not import each other). */
export interface LevelColumns {
  /** Per book, the number of its first level; one more entry, the end of the last book. */
  readonly levelStart: ArrayLike<number>;
  /** Per book, its asks (first) among its levels. */
  readonly askCount: ArrayLike<number>;
  /** Integer ticks of the price of a level. */
  tickAt(level: number, scale: number): number;
}

const ASKS_RISE = 1;
const BIDS_FALL = 2;
const KNOWN = 4;

export class OrderedSides {
  /** Per book, its ASKS_RISE | BIDS_FALL bits plus KNOWN once worked out; 0 while not asked yet. */
  readonly #flags: Uint8Array;

  constructor(
    readonly block: LevelColumns,
    /** The tick scale the order was checked in. */
    readonly scale: number,
  ) {
    this.#flags = new Uint8Array(block.askCount.length);
  }

  /**
   * A book's bits, worked out on its first question: the fill model asks only of the books at which an order is
   * placed or rests (a few thousand of a day's 86,400), so the rest of the block is never scanned.
   */
  #of(b: number): number {
    const known = this.#flags[b]!;
    if (known !== 0) return known;
    const block = this.block;
    const scale = this.scale;
    const from = block.levelStart[b]!;
    const mid = from + block.askCount[b]!;
    const to = block.levelStart[b + 1]!;
    let f = KNOWN | ASKS_RISE | BIDS_FALL;
    // each level's ticks worked out once, kept for the comparison with the next
    let prev = from < mid ? block.tickAt(from, scale) : 0;
    for (let i = from + 1; i < mid; i++) {
      const v = block.tickAt(i, scale);
      if (v < prev) {
        f &= ~ASKS_RISE;
        break;
      }
      prev = v;
    }
    prev = mid < to ? block.tickAt(mid, scale) : 0;
    for (let i = mid + 1; i < to; i++) {
      const v = block.tickAt(i, scale);
      if (v > prev) {
        f &= ~BIDS_FALL;
        break;
      }
      prev = v;
    }
    this.#flags[b] = f;
    return f;
  }

  /** True when the side of book `book` (bids when `descending`) is in order. */
  ordered(book: number, descending: boolean): boolean {
    return (this.#of(book) & (descending ? BIDS_FALL : ASKS_RISE)) !== 0;
  }

  /**
   * On an ordered side [from, to): the first level at `ticks`, or -1 when the first level at or past it (below it
   * when `descending`, else above) is past it, or there is none.
   */
  indexOf(from: number, to: number, ticks: number, descending: boolean): number {
    const block = this.block;
    const scale = this.scale;
    // the side's last level short of the price: so is every level (an order resting away from the touch, the usual
    // case of a quote behind the recorded depth), answered without the search
    if (to > from) {
      const last = block.tickAt(to - 1, scale);
      if (descending ? last > ticks : last < ticks) return -1;
    }
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      const v = block.tickAt(m, scale);
      if (descending ? v <= ticks : v >= ticks) hi = m;
      else lo = m + 1;
    }
    return lo < to && block.tickAt(lo, scale) === ticks ? lo : -1;
  }
}
