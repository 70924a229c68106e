/**
 * A recorded snapshot read from the binary cache (./cache-block.ts): the same API as the text reader's
 * `RecordedSnapshot` (src/recording/recording-format.ts), computed from the block's typed arrays on demand. Ticks
 * are built only when asked, a level's strings and Decimals only when that level is looked at, and the wire
 * record (strings) only when someone reads `wire`.
 */
import { ZERO, type Decimal } from '../../src/model/decimal.js';
import type { TouchReading } from '../../src/model/book-levels.js';
import { RecordedSnapshot, type BookSideName, type RecordedLevel } from '../../src/recording/recording-format.js';
import type { OrderBookResponse, WireLevel } from '../../src/venue/wire.js';
import type { CacheBlock } from './cache-block.js';

/** One level of a cached book: strings and Decimals made on first access. */
export class ColumnLevel implements RecordedLevel {
  #price: Decimal | undefined;
  #amount: Decimal | undefined;
  #wire: WireLevel | undefined;
  constructor(
    readonly block: CacheBlock,
    readonly level: number,
  ) {}
  get wire(): WireLevel {
    return (this.#wire ??= [this.block.priceText(this.level), this.block.amountText(this.level)]);
  }
  get price(): Decimal {
    return (this.#price ??= this.block.priceDecimal(this.level));
  }
  get amount(): Decimal {
    return (this.#amount ??= this.block.amountDecimal(this.level));
  }
}

export class CachedSnapshot extends RecordedSnapshot {
  #askTicks: number[] | undefined;
  #bidTicks: number[] | undefined;
  #asks: ColumnLevel[] | undefined;
  #bids: ColumnLevel[] | undefined;
  #wire: OrderBookResponse | undefined;

  constructor(
    readonly block: CacheBlock,
    /** The book's number in the block. */
    readonly book: number,
    tickScale: number,
  ) {
    // No wire record to hand over: every accessor that would read it is overridden below.
    super(block.bookT[book]!, undefined as unknown as OrderBookResponse, tickScale);
  }

  get #askEnd(): number {
    return this.block.levelStart[this.book]! + this.block.askCount[this.book]!;
  }

  override get wire(): OrderBookResponse {
    return (this.#wire ??= {
      ticker_id: this.block.tickers[this.block.bookTicker[this.book]!]!,
      timestamp: this.timestamp,
      asks: this.asks.map((l) => l.wire),
      bids: this.bids.map((l) => l.wire),
    });
  }
  override get timestamp(): number {
    return this.block.bookTs[this.book]!;
  }
  override get asks(): readonly ColumnLevel[] {
    return (this.#asks ??= this.#levels(this.block.levelStart[this.book]!, this.#askEnd));
  }
  override get bids(): readonly ColumnLevel[] {
    return (this.#bids ??= this.#levels(this.#askEnd, this.block.levelStart[this.book + 1]!));
  }
  override askTicks(): readonly number[] {
    return (this.#askTicks ??= this.block.ticks(this.block.levelStart[this.book]!, this.#askEnd, this.tickScale));
  }
  override bidTicks(): readonly number[] {
    return (this.#bidTicks ??= this.block.ticks(this.#askEnd, this.block.levelStart[this.book + 1]!, this.tickScale));
  }

  /** The block's level number of the first (best) level of a side. */
  #first(side: BookSideName): number {
    return side === 'asks' ? this.block.levelStart[this.book]! : this.#askEnd;
  }
  // the encoder refuses a level whose amount is not a plain non-negative decimal (block-encoder.ts)
  override get nonNegativeAmounts(): boolean {
    return true;
  }
  override levelCount(side: BookSideName): number {
    return side === 'asks' ? this.block.askCount[this.book]! : this.block.levelStart[this.book + 1]! - this.#askEnd;
  }
  override levelTicks(side: BookSideName, i: number): number {
    return this.block.tickAt(this.#first(side) + i, this.tickScale);
  }
  // the scans over the block's columns, without a call per level
  override levelIndexAt(side: BookSideName, ticks: number): number {
    const from = this.#first(side);
    const i = this.block.indexOfTicks(this.book, from, from + this.levelCount(side), ticks, side === 'bids', this.tickScale);
    return i < 0 ? -1 : i - from;
  }
  override levelsAtOrThrough(side: BookSideName, ticks: number): number {
    const from = this.#first(side);
    return this.block.countThrough(from, from + this.levelCount(side), ticks, side === 'bids', this.tickScale);
  }
  // a level's Decimals: the level's own when its side was built (they are made once), else straight off the columns
  override levelPrice(side: BookSideName, i: number): Decimal {
    const built = side === 'asks' ? this.#asks : this.#bids;
    return built !== undefined ? built[i]!.price : this.block.priceDecimal(this.#first(side) + i);
  }
  // the column's integer over 10^decimals, both exact doubles: the double nearest the price (within 2^-53 of it), no Decimal made
  override levelPriceEstimate(side: BookSideName, i: number): number {
    return this.block.priceEstimate(this.#first(side) + i);
  }
  override levelAmount(side: BookSideName, i: number): Decimal {
    const built = side === 'asks' ? this.#asks : this.#bids;
    return built !== undefined ? built[i]!.amount : this.block.amountDecimal(this.#first(side) + i);
  }
  // the columns hold non-negative plain decimals as integers (plain-decimal.ts): > 0 is the integer's sign, no Decimal made
  override levelPositive(side: BookSideName, i: number, field: 'price' | 'amount'): boolean {
    const level = this.#first(side) + i;
    return (field === 'price' ? this.block.price[level]! : this.block.amount[level]!) > 0;
  }
  /** The first of `n` levels from row `from` has a positive price and amount, and the last a positive price. */
  #edgesPositiveAt(from: number, n: number): boolean {
    const { price, amount } = this.block;
    return price[from]! > 0 && amount[from]! > 0 && price[from + n - 1]! > 0;
  }
  // levelCount, the edges' levelPositive and levelPriceEstimate of both sides' touch, the book's offsets read once
  levelTouch(limit: number, out: TouchReading): boolean {
    const { levelStart, askCount } = this.block;
    const a = levelStart[this.book]!;
    const b = a + askCount[this.book]!;
    const asks = Math.min(b - a, limit);
    const bids = Math.min(levelStart[this.book + 1]! - b, limit);
    if (asks > 0 && !this.#edgesPositiveAt(a, asks)) return false;
    if (bids > 0 && !this.#edgesPositiveAt(b, bids)) return false;
    out.asks = asks;
    out.bids = bids;
    if (asks > 0) out.askF = this.block.priceEstimate(a);
    if (bids > 0) out.bidF = this.block.priceEstimate(b);
    return true;
  }
  override amountSum(side: BookSideName, n: number): Decimal {
    if (n === 0) return ZERO;
    const from = this.#first(side);
    return this.block.amountSum(from, from + n) ?? super.amountSum(side, n);
  }

  #levels(from: number, to: number): ColumnLevel[] {
    const out = new Array<ColumnLevel>(to - from);
    for (let i = from; i < to; i++) out[i - from] = new ColumnLevel(this.block, i);
    return out;
  }
}
