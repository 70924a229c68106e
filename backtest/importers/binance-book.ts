/**
 * Rebuilds a Binance order book from a REST snapshot plus `depth` diff updates, with Binance's
 * documented sync rule:
 *  - diffs that arrive before the snapshot are buffered;
 *  - when the snapshot arrives, buffered diffs with `u <= lastUpdateId` are dropped;
 *  - the first diff applied must satisfy `U <= lastUpdateId + 1 <= u`;
 *  - after that each diff must satisfy `U == previous u + 1`; a gap makes the book out of sync until
 *    the next snapshot (the capture's collector fetches one when it sees a gap).
 * A diff's quantities are absolute; "0" removes the level.
 *
 * Prices are kept as integer ticks (sorted arrays, binary search) and quantities as the strings
 * received, so nothing is rounded.
 */
import type { BinanceDiff, BinanceSnapshot } from './binance-capture.js';
import { BookSide, type Level } from './book-side.js';
import { priceTick } from './level-book.js';

export type SyncState = 'waiting-snapshot' | 'synced' | 'gap';

export interface ApplyResult {
  /** `applied`: the diff changed the book; `dropped`: older than the snapshot; `buffered`: no snapshot yet; `gap`: out of sync. */
  readonly outcome: 'applied' | 'dropped' | 'buffered' | 'gap';
}

export class BinanceBook {
  readonly bids: BookSide;
  readonly asks: BookSide;
  #state: SyncState = 'waiting-snapshot';
  #lastU = 0;
  #snapshotId = 0;
  #firstApplied = false;
  readonly #buffer: BinanceDiff[] = [];
  /** Counts for the import summary. */
  readonly stats = { applied: 0, dropped: 0, gaps: 0, snapshots: 0 };

  constructor(private readonly tickScale: number) {
    this.bids = new BookSide(true);
    this.asks = new BookSide(false);
  }

  get state(): SyncState {
    return this.#state;
  }

  /** The final update id applied so far. */
  get lastUpdateId(): number {
    return this.#lastU;
  }

  /** Loads a REST snapshot, then applies the buffered diffs that follow it. Returns the results of those. */
  snapshot(s: BinanceSnapshot): ApplyResult[] {
    this.bids.clear();
    this.asks.clear();
    for (const [p, q] of s.bids) this.bids.set(this.#tick(p), p, q);
    for (const [p, q] of s.asks) this.asks.set(this.#tick(p), p, q);
    this.#snapshotId = s.lastUpdateId;
    this.#lastU = s.lastUpdateId;
    this.#firstApplied = false;
    this.#state = 'synced';
    this.stats.snapshots += 1;
    const buffered = this.#buffer.splice(0);
    return buffered.map((d) => this.diff(d));
  }

  diff(d: BinanceDiff): ApplyResult {
    if (this.#state === 'waiting-snapshot') {
      this.#buffer.push(d);
      return { outcome: 'buffered' };
    }
    if (this.#state === 'gap') {
      // Keep the diffs that may follow the next snapshot, as before the first one.
      this.#buffer.push(d);
      return { outcome: 'gap' };
    }
    if (d.u <= this.#lastU && !this.#firstApplied) {
      this.stats.dropped += 1;
      return { outcome: 'dropped' };
    }
    const ok = this.#firstApplied ? d.U === this.#lastU + 1 : d.U <= this.#snapshotId + 1 && this.#snapshotId + 1 <= d.u;
    if (!ok) {
      this.#state = 'gap';
      this.stats.gaps += 1;
      this.#buffer.length = 0;
      this.#buffer.push(d);
      return { outcome: 'gap' };
    }
    for (const [p, q] of d.b) this.bids.set(this.#tick(p), p, q);
    for (const [p, q] of d.a) this.asks.set(this.#tick(p), p, q);
    this.#lastU = d.u;
    this.#firstApplied = true;
    this.stats.applied += 1;
    return { outcome: 'applied' };
  }

  bestBid(): string | undefined {
    const t = this.bids.ticks[0];
    return t === undefined ? undefined : this.bids.price.get(t);
  }

  bestAsk(): string | undefined {
    const t = this.asks.ticks[0];
    return t === undefined ? undefined : this.asks.price.get(t);
  }

  top(n: number): { bids: Level[]; asks: Level[] } {
    return { bids: this.bids.top(n), asks: this.asks.top(n) };
  }

  crossed(): boolean {
    const b = this.bids.ticks[0];
    const a = this.asks.ticks[0];
    return b !== undefined && a !== undefined && b >= a;
  }

  /** Refuses a price off the grid (OffTickError): rounding it would merge two levels into one. */
  #tick(price: string): number {
    return priceTick(price, this.tickScale);
  }
}
