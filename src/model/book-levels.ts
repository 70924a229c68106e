import type { BookLevel, OrderBook } from './book.js';
import type { Decimal } from './decimal.js';
import { estimate } from './decimal-estimate.js';
import { partsOf } from './decimal-parts.js';

/** A side of a book, by its field name. */
export type BookSide = 'asks' | 'bids';

/**
 * Level queries a book can answer without building its `asks`/`bids` arrays: the backtest's books read a recorded
 * snapshot's columns (src/recording/recording-format.ts), and the engine reads only the touch and the last level of
 * each side on every poll, while building the arrays cost two arrays and a level object per level (20 a side) per
 * poll. A strategy still gets the arrays on access; the engine asks through the functions below.
 */
export interface BookLevelReader {
  /** The book the reader answers for (a copy of it made by spreading carries the symbol but is not this book). */
  readonly book: OrderBook;
  count(side: BookSide): number;
  price(side: BookSide, i: number): Decimal;
  amount(side: BookSide, i: number): Decimal;
  /** True when level `i`'s price or amount is > 0 and finite (asked without making its Decimal where the data allows). */
  positive(side: BookSide, i: number, field: 'price' | 'amount'): boolean;
  /** Level `i`'s price within ESTIMATE_REL_ERROR of it, NaN when not estimated (see priceEstimate below). */
  priceEstimate(side: BookSide, i: number): number;
  /**
   * What the sanity check reads of every poll, in one call instead of six `positive`, two `count` and two
   * `priceEstimate` calls: true when each side is empty or `positive` is true of its level 0's price and amount and its
   * last level's price (on a side in the contract's order those bound every price), and then `out` holds both sides'
   * `count` and, for a side with levels, its `priceEstimate(side, 0)` (for an empty side the estimate is left as it
   * was). False: `out` is not to be read (the check asks level by level, to find what is wrong).
   */
  touch(out: TouchReading): boolean;
}

/** The touch as BookLevelReader.touch reads it: a record the caller keeps and hands in for every book. */
export interface TouchReading {
  bids: number;
  asks: number;
  bidF: number;
  askF: number;
}

/** Where a book holds its reader. */
export const LEVEL_READER: unique symbol = Symbol('book level reader');

/** A book that carries a level reader. */
export interface BookWithLevels extends OrderBook {
  readonly [LEVEL_READER]: BookLevelReader;
}

/** The book's own level reader, if it has one (not a copy's: see `book`). */
export function readerOf(book: OrderBook): BookLevelReader | undefined {
  const r = (book as Partial<BookWithLevels>)[LEVEL_READER];
  return r !== undefined && r.book === book ? r : undefined;
}

/** Levels on a side: `book[side].length`. */
export function sideCount(book: OrderBook, side: BookSide): number {
  const r = readerOf(book);
  return r !== undefined ? r.count(side) : book[side].length;
}

/** The price of level `i` of a side (best first), undefined past the side's end: `book[side][i]?.price`. */
export function levelPrice(book: OrderBook, side: BookSide, i: number): Decimal | undefined {
  const r = readerOf(book);
  if (r === undefined) return book[side][i]?.price;
  return i >= 0 && i < r.count(side) ? r.price(side, i) : undefined;
}

/** The amount of level `i` of a side, undefined past the side's end: `book[side][i]?.amount`. */
export function levelAmount(book: OrderBook, side: BookSide, i: number): Decimal | undefined {
  const r = readerOf(book);
  if (r === undefined) return book[side][i]?.amount;
  return i >= 0 && i < r.count(side) ? r.amount(side, i) : undefined;
}

/** The best price of a side: `book[side][0]?.price`. */
export function bestPrice(book: OrderBook, side: BookSide): Decimal | undefined {
  return levelPrice(book, side, 0);
}

/**
 * The best price of a side as a double within ESTIMATE_REL_ERROR of it (decimal-estimate.ts; NaN when not estimated),
 * undefined for an empty side: `estimate(bestPrice(book, side))`, which a backtest's book answers from its columns
 * without making the Decimal. For a per-poll test that decides on estimates when they are plainly apart.
 */
export function bestPriceEstimate(book: OrderBook, side: BookSide): number | undefined {
  const r = readerOf(book);
  if (r === undefined) {
    const price = book[side][0]?.price;
    return price === undefined ? undefined : estimate(price);
  }
  return r.count(side) > 0 ? r.priceEstimate(side, 0) : undefined;
}

/** Level `i` of a side as a BookLevel (built from the reader when the book has one: for messages, not hot paths). */
export function levelAt(book: OrderBook, side: BookSide, i: number): BookLevel | undefined {
  const r = readerOf(book);
  if (r === undefined) return book[side][i];
  return i >= 0 && i < r.count(side) ? { price: r.price(side, i), amount: r.amount(side, i) } : undefined;
}

/**
 * True when level `i` of a side (which must exist) has a price (or amount) > 0 and finite: what the sanity check asks
 * of the touch and the last level of every poll, answered by a reader without making the Decimal.
 */
export function levelPositive(book: OrderBook, side: BookSide, i: number, field: 'price' | 'amount'): boolean {
  const r = readerOf(book);
  return r !== undefined ? r.positive(side, i, field) : isPositive(book[side][i]![field]);
}

/** > 0 and finite, read off the parts (no comparison, no allocation). */
export function isPositive(x: Decimal): boolean {
  const p = partsOf(x);
  return p.s > 0 && p.d !== null && p.d[0] !== 0;
}
