import type { OrderBook } from '../model/book.js';
import { bestPrice } from '../model/book-levels.js';
import { D, ZERO, type Decimal } from '../model/decimal.js';
import { gte } from '../model/decimal-compare.js';
import { dadd, dmul, dsub } from '../model/decimal-small.js';

const HALF = D('0.5');

/** Best bid, best ask, mid and spread of a book snapshot; `undefined` fields when a side is empty. */
export interface BookTop {
  readonly bid?: Decimal;
  readonly ask?: Decimal;
  /** (bid + ask) / 2, only when both sides are present and not crossed. */
  readonly mid?: Decimal;
  /** ask − bid, only when both sides are present. */
  readonly spread?: Decimal;
}

/** The top of a book, as strategies need it. Pure. */
export function bookTop(book: OrderBook): BookTop {
  const bid = bestPrice(book, 'bids');
  const ask = bestPrice(book, 'asks');
  if (bid === undefined || ask === undefined) return { ...(bid ? { bid } : {}), ...(ask ? { ask } : {}) };
  const spread = dsub(ask, bid);
  // × 0.5 is the exact halving, much cheaper than a division at the library's 60 digits (runs on every snapshot).
  return gte(spread, ZERO) ? { bid, ask, mid: dmul(dadd(bid, ask), HALF), spread } : { bid, ask, spread };
}

/** Best bid, best ask and their mid: a book with both sides, not crossed. */
export interface BookTouch {
  readonly bid: Decimal;
  readonly ask: Decimal;
  readonly mid: Decimal;
}

/**
 * The touch of a book (best bid, best ask, mid), or `undefined` when a side is empty or the book is crossed: what a
 * quoting strategy reads on every snapshot, without the spread's subtraction (the same bid, ask and mid as bookTop).
 */
export function bookTouch(book: OrderBook): BookTouch | undefined {
  const bid = bestPrice(book, 'bids');
  const ask = bestPrice(book, 'asks');
  // ask >= bid is spread >= 0: a difference rounded to the precision keeps its sign and is zero only when exact
  if (bid === undefined || ask === undefined || !gte(ask, bid)) return undefined;
  return { bid, ask, mid: dmul(dadd(bid, ask), HALF) };
}

/** Mid price of a book, or `undefined` when a side is empty or the book is crossed. */
export function midPrice(book: OrderBook): Decimal | undefined {
  return bookTouch(book)?.mid;
}
