import type { Side } from '../model/order.js';
import type { SimOrder } from './sim-order.js';

/** Orders resting at one price, in time priority. A head index makes taking from the front O(1). */
export class PriceLevel {
  readonly orders: SimOrder[] = [];
  head = 0;

  constructor(readonly ticks: number) {}

  get size(): number {
    return this.orders.length - this.head;
  }

  front(): SimOrder | undefined {
    return this.orders[this.head];
  }

  shift(): void {
    this.orders[this.head] = undefined as unknown as SimOrder;
    this.head++;
    // Compact once the dead prefix dominates, so memory stays bounded on a busy level.
    if (this.head > 32 && this.head * 2 > this.orders.length) {
      this.orders.splice(0, this.head);
      this.head = 0;
    }
  }

  remove(order: SimOrder): boolean {
    const i = this.orders.indexOf(order, this.head);
    if (i < 0) return false;
    if (i === this.head) this.shift();
    else this.orders.splice(i, 1);
    return true;
  }
}

/**
 * One side of a market's book. Price levels are keyed by integer ticks; `ticks` is kept sorted with
 * the BEST price at the END, so taking the best level and removing an emptied best level are O(1)
 * (asks: descending array, lowest last; bids: ascending array, highest last).
 */
export class BookSide {
  private readonly ticks: number[] = [];
  private readonly levels = new Map<number, PriceLevel>();

  constructor(readonly side: Side) {}

  /** True when `a` is a better price than `b` for this side. */
  private better(a: number, b: number): boolean {
    return this.side === 'buy' ? a > b : a < b;
  }

  best(): PriceLevel | undefined {
    const t = this.ticks[this.ticks.length - 1];
    return t === undefined ? undefined : this.levels.get(t);
  }

  get levelCount(): number {
    return this.ticks.length;
  }

  add(order: SimOrder): void {
    let level = this.levels.get(order.ticks);
    if (level === undefined) {
      level = new PriceLevel(order.ticks);
      this.levels.set(order.ticks, level);
      this.insertTicks(order.ticks);
    }
    level.orders.push(order);
  }

  /** True when the order rests on this side. */
  has(order: SimOrder): boolean {
    const level = this.levels.get(order.ticks);
    return level !== undefined && level.orders.indexOf(order, level.head) >= 0;
  }

  /** Removes an order wherever it rests; drops its level when emptied. */
  remove(order: SimOrder): boolean {
    const level = this.levels.get(order.ticks);
    if (level === undefined || !level.remove(order)) return false;
    if (level.size === 0) this.dropLevel(level.ticks);
    return true;
  }

  /** Drops a level that matching emptied (usually the best, at the end). */
  dropLevel(ticks: number): void {
    this.levels.delete(ticks);
    const last = this.ticks.length - 1;
    if (this.ticks[last] === ticks) {
      this.ticks.pop();
      return;
    }
    const i = this.indexOf(ticks);
    if (i >= 0 && this.ticks[i] === ticks) this.ticks.splice(i, 1);
  }

  /** Levels from the best outwards. */
  *fromBest(): Generator<PriceLevel> {
    for (let i = this.ticks.length - 1; i >= 0; i--) {
      const level = this.levels.get(this.ticks[i]!);
      if (level !== undefined) yield level;
    }
  }

  /** Every resting order (any order of levels). */
  *orders(): Generator<SimOrder> {
    for (const level of this.levels.values()) {
      for (let i = level.head; i < level.orders.length; i++) yield level.orders[i]!;
    }
  }

  /** First index whose value is not better than... i.e. binary search for the insertion point. */
  private indexOf(t: number): number {
    // Array is sorted worst→best; find the first index whose value is better-or-equal to t.
    let lo = 0;
    let hi = this.ticks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.better(t, this.ticks[mid]!)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insertTicks(t: number): void {
    const n = this.ticks.length;
    // Most new levels land at or near the top of the book: check the end before searching.
    if (n === 0 || this.better(t, this.ticks[n - 1]!)) {
      this.ticks.push(t);
      return;
    }
    this.ticks.splice(this.indexOf(t), 0, t);
  }
}

/** Both sides of one market. */
export class OrderBookSides {
  readonly bids = new BookSide('buy');
  readonly asks = new BookSide('sell');

  sideOf(side: Side): BookSide {
    return side === 'buy' ? this.bids : this.asks;
  }

  opposite(side: Side): BookSide {
    return side === 'buy' ? this.asks : this.bids;
  }
}
