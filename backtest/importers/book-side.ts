/**
 * One side of an L2 book for the importers: prices as integer ticks kept sorted best-first (binary
 * search), quantities and prices as the strings received, so nothing is rounded and an exchange's
 * checksum can be computed over the exact text. A quantity that is zero removes the level.
 */
export type Level = [price: string, quantity: string];

export class BookSide {
  readonly ticks: number[] = [];
  readonly qty = new Map<number, string>();
  readonly price = new Map<number, string>();
  constructor(private readonly descending: boolean) {}

  get size(): number {
    return this.ticks.length;
  }

  clear(): void {
    this.ticks.length = 0;
    this.qty.clear();
    this.price.clear();
  }

  set(tick: number, price: string, quantity: string): void {
    const zero = isZero(quantity);
    const had = this.qty.has(tick);
    if (zero) {
      if (!had) return;
      this.qty.delete(tick);
      this.price.delete(tick);
      this.ticks.splice(this.#index(tick), 1);
      return;
    }
    this.qty.set(tick, quantity);
    if (!had) {
      this.price.set(tick, price);
      this.ticks.splice(this.#index(tick), 0, tick);
    }
  }

  /** Keeps the best `n` levels (an exchange that maintains its book to the subscribed depth). */
  truncate(n: number): void {
    if (this.ticks.length <= n) return;
    for (const tick of this.ticks.splice(n)) {
      this.qty.delete(tick);
      this.price.delete(tick);
    }
  }

  /** Position of `tick` (or where it would go) in best-first order. */
  #index(tick: number): number {
    let lo = 0;
    let hi = this.ticks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ticks[mid]!;
      if (this.descending ? v > tick : v < tick) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  top(n: number): Level[] {
    const out: Level[] = [];
    const m = Math.min(n, this.ticks.length);
    for (let i = 0; i < m; i++) {
      const tick = this.ticks[i]!;
      out.push([this.price.get(tick)!, this.qty.get(tick)!]);
    }
    return out;
  }
}

/** "0", "0.00000000", "0e0": a removal. Number() is exact for zero, whatever the padding. */
function isZero(quantity: string): boolean {
  return Number(quantity) === 0;
}
