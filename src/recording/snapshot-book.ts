import type { BookLevel, OrderBook } from '../model/book.js';
import { LEVEL_READER, type BookLevelReader, type BookSide, type BookWithLevels, type TouchReading } from '../model/book-levels.js';
import type { Decimal } from '../model/decimal.js';
import { estimate } from '../model/decimal-estimate.js';

/**
 * What a book view reads of its snapshot: RecordedSnapshot's level queries (recording-format.ts, which makes the
 * views; named here by shape, so the two files do not import each other).
 */
export interface SnapshotLevels {
  readonly timestamp: number;
  readonly asks: readonly BookLevel[];
  readonly bids: readonly BookLevel[];
  levelCount(side: BookSide): number;
  levelPrice(side: BookSide, i: number): Decimal;
  levelAmount(side: BookSide, i: number): Decimal;
  levelPositive(side: BookSide, i: number, field: 'price' | 'amount'): boolean;
  levelPriceEstimate(side: BookSide, i: number): number;
  /**
   * BookLevelReader.touch of the first `limit` levels a side, from the data: true when levelPositive holds of level 0's
   * price and amount and of the last level's price on both sides (an empty one counts as positive), and then `out` has
   * each side's level count (capped at `limit`) and, for a side with levels, levelPriceEstimate(side, 0). Absent (a
   * text line's snapshot: only the binary cache's has it), the book asks its other queries.
   */
  levelTouch?(limit: number, out: TouchReading): boolean;
}

/**
 * The domain order book of a recorded snapshot, at most `limit` levels a side, which is its own level reader
 * (model/book-levels.ts): the engine reads the touch through it without building the level arrays, and `asks` and
 * `bids` are built when first read. The touch's Decimals are kept: the sanity check, the engine's marks and guards,
 * the gate and the strategy all read them on the same poll.
 */
class SnapshotBook implements BookWithLevels, BookLevelReader {
  #askPrice: Decimal | undefined;
  #bidPrice: Decimal | undefined;
  #askAmount: Decimal | undefined;
  #bidAmount: Decimal | undefined;
  #asks: readonly BookLevel[] | undefined;
  #bids: readonly BookLevel[] | undefined;
  // Each side's count and its touch's estimate from the data, kept once asked: the sanity check, the engine's guard,
  // the strategy's touch and its quotes check all ask them of the same poll (-1, undefined: not asked yet).
  #askCount = -1;
  #bidCount = -1;
  #askF: number | undefined;
  #bidF: number | undefined;
  readonly timestamp: number;

  constructor(
    readonly snapshot: SnapshotLevels,
    readonly market: string,
    /** Levels a side the book was asked for. */
    readonly limit: number,
  ) {
    this.timestamp = snapshot.timestamp;
    // two defineProperty calls, not one defineProperties: the same own accessors at half the cost (that call converts
    // its descriptor map generically; it was ~5 % of a replay's CPU, one book per poll)
    Object.defineProperty(this, 'asks', SnapshotBook.#asksProperty);
    Object.defineProperty(this, 'bids', SnapshotBook.#bidsProperty);
  }

  /**
   * `asks` and `bids`, built when first read, as OWN enumerable properties (the same two descriptors for every book, so
   * no closure per book): a copy (`{ ...book }`), JSON.stringify and Object.keys see them as they see a live book's
   * arrays, so a strategy that copies a book behaves the same in a backtest as live.
   */
  static readonly #asksProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: SnapshotBook): readonly BookLevel[] {
      return (this.#asks ??= cut(this.snapshot.asks, this.limit));
    },
  };
  static readonly #bidsProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: SnapshotBook): readonly BookLevel[] {
      return (this.#bids ??= cut(this.snapshot.bids, this.limit));
    },
  };
  declare readonly asks: readonly BookLevel[];
  declare readonly bids: readonly BookLevel[];

  get [LEVEL_READER](): BookLevelReader {
    return this;
  }
  get book(): OrderBook {
    return this;
  }
  count(side: BookSide): number {
    if (side === 'asks') return this.#askCount >= 0 ? this.#askCount : (this.#askCount = Math.min(this.snapshot.levelCount(side), this.limit));
    return this.#bidCount >= 0 ? this.#bidCount : (this.#bidCount = Math.min(this.snapshot.levelCount(side), this.limit));
  }
  price(side: BookSide, i: number): Decimal {
    if (i !== 0) return this.snapshot.levelPrice(side, i);
    return side === 'asks' ? (this.#askPrice ??= this.snapshot.levelPrice(side, 0)) : (this.#bidPrice ??= this.snapshot.levelPrice(side, 0));
  }
  // the touch's Decimal when made already (its estimate is then what every reader of the Decimal sees), else the data's
  priceEstimate(side: BookSide, i: number): number {
    if (i !== 0) return this.snapshot.levelPriceEstimate(side, i);
    if (side === 'asks') return this.#askPrice !== undefined ? estimate(this.#askPrice) : (this.#askF ??= this.snapshot.levelPriceEstimate(side, 0));
    return this.#bidPrice !== undefined ? estimate(this.#bidPrice) : (this.#bidF ??= this.snapshot.levelPriceEstimate(side, 0));
  }
  positive(side: BookSide, i: number, field: 'price' | 'amount'): boolean {
    return this.snapshot.levelPositive(side, i, field);
  }
  /** BookLevelReader.touch's test of one side, asked level by level (a snapshot without levelTouch). */
  #edgesPositive(side: BookSide): boolean {
    const n = this.count(side);
    if (n === 0) return true;
    const s = this.snapshot;
    return s.levelPositive(side, 0, 'price') && s.levelPositive(side, 0, 'amount') && s.levelPositive(side, n - 1, 'price');
  }
  touch(out: TouchReading): boolean {
    const s = this.snapshot;
    if (s.levelTouch !== undefined) {
      if (!s.levelTouch(this.limit, out)) return false;
      // the same counts and data estimates as count() and priceEstimate() work out (CachedSnapshot.levelTouch)
      this.#askCount = out.asks;
      this.#bidCount = out.bids;
      if (out.asks > 0) this.#askF = out.askF;
      if (out.bids > 0) this.#bidF = out.bidF;
    } else {
      if (!this.#edgesPositive('bids') || !this.#edgesPositive('asks')) return false;
      out.bids = this.count('bids');
      out.asks = this.count('asks');
      if (out.bids > 0) out.bidF = s.levelPriceEstimate('bids', 0);
      if (out.asks > 0) out.askF = s.levelPriceEstimate('asks', 0);
    }
    // priceEstimate's answer: the made touch's estimate where it was made
    if (this.#bidPrice !== undefined && out.bids > 0) out.bidF = estimate(this.#bidPrice);
    if (this.#askPrice !== undefined && out.asks > 0) out.askF = estimate(this.#askPrice);
    return true;
  }
  amount(side: BookSide, i: number): Decimal {
    if (i !== 0) return this.snapshot.levelAmount(side, i);
    return side === 'asks' ? (this.#askAmount ??= this.snapshot.levelAmount(side, 0)) : (this.#bidAmount ??= this.snapshot.levelAmount(side, 0));
  }
}

function cut(levels: readonly BookLevel[], n: number): readonly BookLevel[] {
  return levels.length > n ? levels.slice(0, n) : levels;
}

/** The domain order book of a recorded snapshot, at most `limit` levels a side (see SnapshotBook). */
export function snapshotBook(snapshot: SnapshotLevels, market: string, limit: number): OrderBook {
  return new SnapshotBook(snapshot, market, limit);
}
