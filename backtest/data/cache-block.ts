/**
 * One block of the recording cache (./recording-cache.ts): up to BLOCK_EVENTS consecutive lines of a
 * recording (book snapshots, trades, market records, in file order) stored as columns (./cache-columns.ts).
 *
 * Payload: u32 events, books, trades, levels, extras length, 0; then the columns (each stored as a constant, u8,
 * i32 or f64, the narrowest that holds every value of the block exactly)
 *   kinds (per event: 0 book, 1 trade, 2 market);
 *   per book: t, timestamp, ticker (index into the extras' ticker table), levelStart (i32, books + 1
 *     entries; the book's asks then bids are levels [levelStart[b], levelStart[b + 1])), askCount;
 *   per level: price, price decimals, amount, amount decimals;
 *   per trade: t, price, price decimals, amount, amount decimals, side (0 buy, 1 sell);
 * then the extras as JSON: `{ tickers: string[], markets: MarketLine[] }` (market records in order).
 * A price or amount is the exact integer `value × 10^decimals`, its decimals those of the recorded string, so
 * the string is rebuilt byte for byte ("30000.50" → 3000050, 2). A block of a fixed-format recording stores
 * the decimals as one constant per column and the integers as i32 when they fit.
 */
import type { Decimal } from '../../src/model/decimal.js';
import { RecordingFormatError, type MarketLine } from '../../src/recording/recording-format.js';
import { ColumnReader, type Column } from './cache-columns.js';
import { OrderedSides } from './ordered-sides.js';
import { formatPlainDecimal, MAX_DECIMALS, plainDecimal, POW10, ticksOf } from './plain-decimal.js';

export const KIND_BOOK = 0;
export const KIND_TRADE = 1;
export const KIND_MARKET = 2;

/** Events per block: ~4k snapshots of 20 levels a side is ~1.3 MB, a size one read brings in at full speed. */
export const BLOCK_EVENTS = 4096;
/** Levels per block, so books of thousands of levels still make blocks of a few MB. */
export const BLOCK_LEVELS = 1 << 18;

type Ints = Int32Array | Float64Array;

/** A decoded block: typed views over its bytes, and the accessors the cached snapshots and the feed use. */
export class CacheBlock {
  readonly events: number;
  readonly kinds: Uint8Array;
  /** Position of each event among the events of its kind (its book, trade or market number in the block). */
  readonly index: Int32Array;
  readonly bookT: Ints;
  readonly bookTs: Ints;
  readonly bookTicker: Ints;
  readonly levelStart: Ints;
  readonly askCount: Ints;
  readonly price: Ints;
  readonly priceDec: Uint8Array;
  /** The decimals of every price when the block's column is constant, else NaN. */
  readonly priceDecConst: number;
  readonly amount: Ints;
  readonly amountDec: Uint8Array;
  readonly tradeT: Ints;
  readonly tradePrice: Ints;
  readonly tradePriceDec: Uint8Array;
  readonly tradeAmount: Ints;
  readonly tradeAmountDec: Uint8Array;
  readonly tradeSide: Uint8Array;
  readonly tickers: readonly string[];
  readonly markets: readonly MarketLine[];
  /** The tick scale at which a stored price already is its tick count (i32 prices, one decimals for all), or NaN. */
  readonly #intTicksScale: number;
  /** Which book sides are in order, for the last tick scale asked (made on the first level scan). */
  #ordered: OrderedSides | undefined;

  /** Decodes and checks a payload (`bytes.byteOffset` a multiple of 8); a malformed one throws RecordingFormatError. */
  constructor(bytes: Uint8Array) {
    const r = new ColumnReader(bytes);
    const [events, books, trades, levels, extrasLength] = [r.u32(), r.u32(), r.u32(), r.u32(), r.u32(), r.u32()];
    this.events = events;
    this.kinds = r.smallInts(events).values;
    this.bookT = r.numbers(books).values;
    this.bookTs = r.numbers(books).values;
    this.bookTicker = r.numbers(books).values;
    this.levelStart = r.numbers(books + 1).values;
    this.askCount = r.numbers(books).values;
    this.price = r.numbers(levels).values;
    const priceDec = r.smallInts(levels);
    this.priceDec = priceDec.values;
    this.priceDecConst = priceDec.constant;
    this.amount = r.numbers(levels).values;
    const amountDec = r.smallInts(levels);
    this.amountDec = amountDec.values;
    this.tradeT = r.numbers(trades).values;
    this.tradePrice = r.numbers(trades).values;
    const tradePriceDec = r.smallInts(trades);
    this.tradePriceDec = tradePriceDec.values;
    this.tradeAmount = r.numbers(trades).values;
    const tradeAmountDec = r.smallInts(trades);
    this.tradeAmountDec = tradeAmountDec.values;
    this.tradeSide = r.smallInts(trades).values;
    let extras: { tickers?: unknown; markets?: unknown };
    try {
      extras = JSON.parse(new TextDecoder().decode(r.bytesOf(extrasLength))) as typeof extras;
    } catch (error) {
      throw new RecordingFormatError('cache block: bad extras', error);
    }
    if (!Array.isArray(extras.tickers) || !Array.isArray(extras.markets)) throw new RecordingFormatError('cache block: bad extras');
    this.tickers = extras.tickers as string[];
    this.markets = extras.markets as MarketLine[];
    this.index = new Int32Array(events);
    this.#check(books, trades, levels, [priceDec, amountDec, tradePriceDec, tradeAmountDec]);
    this.#intTicksScale = this.price instanceof Int32Array ? (POW10[this.priceDecConst] ?? NaN) : NaN;
  }

  /** Structural checks, so a damaged block fails here instead of yielding wrong events. */
  #check(books: number, trades: number, levels: number, decimals: readonly Column<Uint8Array>[]): void {
    const count = [0, 0, 0];
    for (let i = 0; i < this.events; i++) {
      const k = this.kinds[i]!;
      if (k > KIND_MARKET) throw new RecordingFormatError('cache block: bad event kind');
      this.index[i] = count[k]!++;
    }
    if (count[KIND_BOOK] !== books || count[KIND_TRADE] !== trades || count[KIND_MARKET] !== this.markets.length) {
      throw new RecordingFormatError('cache block: event counts disagree');
    }
    if (this.levelStart[0] !== 0 || this.levelStart[books] !== levels) throw new RecordingFormatError('cache block: bad level index');
    for (let b = 0; b < books; b++) {
      const span = this.levelStart[b + 1]! - this.levelStart[b]!;
      const asks = this.askCount[b]!;
      if (!(span >= 0 && asks >= 0 && asks <= span) || !(this.tickers[this.bookTicker[b]!] !== undefined)) {
        throw new RecordingFormatError('cache block: bad book');
      }
    }
    for (const { values: dec, constant } of decimals) {
      // a constant column (a fixed-format recording's) holds its one value throughout: checked once, not per level
      if (dec.length > 0 && !Number.isNaN(constant)) {
        if (constant > MAX_DECIMALS) throw new RecordingFormatError('cache block: bad decimals');
        continue;
      }
      for (let i = 0; i < dec.length; i++) if (dec[i]! > MAX_DECIMALS) throw new RecordingFormatError('cache block: bad decimals');
    }
    for (let i = 0; i < trades; i++) if (this.tradeSide[i]! > 1) throw new RecordingFormatError('cache block: bad trade side');
  }

  priceText(level: number): string {
    return formatPlainDecimal(this.price[level]!, this.priceDec[level]!);
  }

  amountText(level: number): string {
    return formatPlainDecimal(this.amount[level]!, this.amountDec[level]!);
  }

  /** `new Decimal(priceText(level))`, without the text. */
  priceDecimal(level: number): Decimal {
    return plainDecimal(this.price[level]!, this.priceDec[level]!);
  }

  /** The price of a level as the double nearest it (int / 10^decimals, one correctly rounded division), without a Decimal. */
  priceEstimate(level: number): number {
    return this.price[level]! / POW10[this.priceDec[level]!]!;
  }

  /** `new Decimal(amountText(level))`, without the text. */
  amountDecimal(level: number): Decimal {
    return plainDecimal(this.amount[level]!, this.amountDec[level]!);
  }

  /** Integer ticks of the prices of levels [from, to): what `priceToTicks` gives for their strings. */
  ticks(from: number, to: number, scale: number): number[] {
    const out = new Array<number>(to - from);
    for (let i = from; i < to; i++) out[i - from] = this.tickAt(i, scale);
    return out;
  }

  /** Integer ticks of the price of one level: what `priceToTicks` gives for its string. */
  tickAt(level: number, scale: number): number {
    // at the scale of a constant-decimals i32 column the stored integer already is the tick count (|int| < 2^31, so
    // int / 10^d * 10^d rounds back to it)
    return scale === this.#intTicksScale ? this.price[level]! : ticksOf(this.price[level]!, this.priceDec[level]!, scale);
  }

  /**
   * The first level of [from, to) (a side of book `book`) priced at `ticks`, scanning in order and giving up at the
   * first level past it (below it when `descending`, as bids are, else above it): its number, or -1.
   * RecordedSnapshot.levelIndexAt over the columns.
   */
  indexOfTicks(book: number, from: number, to: number, ticks: number, descending: boolean, scale: number): number {
    // an ordered side (ordered-sides.ts; the block is checked once per tick scale) is searched, not walked
    const ordered = this.#ordered?.scale === scale ? this.#ordered : (this.#ordered = new OrderedSides(this, scale));
    if (ordered.ordered(book, descending)) return ordered.indexOf(from, to, ticks, descending);
    const direct = scale === this.#intTicksScale;
    for (let i = from; i < to; i++) {
      const v = direct ? this.price[i]! : ticksOf(this.price[i]!, this.priceDec[i]!, scale);
      if (v === ticks) return i;
      if (descending ? v < ticks : v > ticks) return -1;
    }
    return -1;
  }

  /**
   * How many levels of [from, to), in order, are priced at or through `ticks` (at or above it when `descending`, as
   * bids are, else at or below it) before the first that is not. RecordedSnapshot.levelsAtOrThrough over the columns.
   */
  countThrough(from: number, to: number, ticks: number, descending: boolean, scale: number): number {
    const direct = scale === this.#intTicksScale;
    let i = from;
    for (; i < to; i++) {
      const v = direct ? this.price[i]! : ticksOf(this.price[i]!, this.priceDec[i]!, scale);
      if (descending ? v < ticks : v > ticks) break;
    }
    return i - from;
  }

  /**
   * The exact sum of the amounts of levels [from, to) (from < to), or undefined when it is past 2^53 at their
   * largest decimals: the integers aligned to those decimals and added, one Decimal made of the total. Each term and
   * partial sum is exact while the total stays below 2^53 (the terms are non-negative and a double's rounding is
   * monotonic, so a term or partial sum past it leaves the total past it).
   */
  amountSum(from: number, to: number): Decimal | undefined {
    const amount = this.amount;
    const dec = this.amountDec;
    let d = 0;
    for (let i = from; i < to; i++) if (dec[i]! > d) d = dec[i]!;
    let sum = 0;
    for (let i = from; i < to; i++) sum += amount[i]! * POW10[d - dec[i]!]!;
    return sum <= Number.MAX_SAFE_INTEGER ? plainDecimal(sum, d) : undefined;
  }

  tradePriceDecimal(trade: number): Decimal {
    return plainDecimal(this.tradePrice[trade]!, this.tradePriceDec[trade]!);
  }

  tradeAmountDecimal(trade: number): Decimal {
    return plainDecimal(this.tradeAmount[trade]!, this.tradeAmountDec[trade]!);
  }
}
