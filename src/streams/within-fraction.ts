import type { OrderBook } from '../model/book.js';
import { bestPrice, type BookSide } from '../model/book-levels.js';
import type { Decimal } from '../model/decimal.js';
import { lt, lteProduct } from '../model/decimal-compare.js';
import { estimate, plainSign } from '../model/decimal-estimate.js';
import { dadd, dsub } from '../model/decimal-small.js';

/**
 * "Is x within this fraction of ref?" (|x − ref| ≤ ref × fraction, ref > 0), asked of every polled book (the jump
 * check) and every order (the price band). Decided on the values' estimates (decimal-estimate.ts) when they are
 * plainly on one side of the edge, with exact Decimal arithmetic otherwise: the answer is always the exact one, and a
 * poll costs no Decimal made (the exact way cost two per poll, ~4 % of a backtest's replay).
 */

/**
 * A sum of two positive prices (bid + ask: twice the mid; a one-sided book's touch, twice), with its estimate. The
 * prices themselves are asked for only by the exact path and messages: a book's touch (touchSum) is then not made in
 * Decimals on a poll the estimates settle.
 */
export interface PriceSum {
  /** The two prices' estimates summed; NaN when not estimated (then every test of it is decided exactly). */
  readonly f: number;
  /** The two prices. */
  prices(): readonly [Decimal, Decimal];
}

export function priceSum(a: Decimal, b: Decimal): PriceSum {
  const both = [a, b] as const;
  return { f: estimate(a) + estimate(b), prices: () => both };
}

/** The sum of the best prices of a book's sides `x` and `y` (the same side twice: a one-sided book's touch), whose estimates are `xf`, `yf`. */
export function touchSum(book: OrderBook, x: BookSide, y: BookSide, xf: number, yf: number): PriceSum {
  return new TouchSum(book, x, y, xf + yf);
}

// One object per polled book, not a record and a closure over the book (the sanity check makes one per poll).
class TouchSum implements PriceSum {
  constructor(
    readonly book: OrderBook,
    readonly x: BookSide,
    readonly y: BookSide,
    readonly f: number,
  ) {}

  prices(): readonly [Decimal, Decimal] {
    return [bestPrice(this.book, this.x)!, bestPrice(this.book, this.y)!];
  }
}

/** The exact sum (for messages and the exact path). */
export function sumOf(s: PriceSum): Decimal {
  const [a, b] = s.prices();
  return dadd(a, b);
}

/**
 * 1: plainly within, −1: plainly outside, 0: too close to the edge to tell from estimates (or NaN somewhere). The
 * figures are x, ref and fraction × ref, all within (|x| + |ref|) × (1 + fraction); 8 error terms of that leave a wide
 * margin (three estimates, a product of two, four double operations).
 */
function plainly(x: number, ref: number, fraction: number): -1 | 0 | 1 {
  return plainSign(fraction * ref - Math.abs(x - ref), (Math.abs(x) + Math.abs(ref)) * (1 + fraction), 8);
}

function exactly(x: Decimal, ref: Decimal, fraction: Decimal): boolean {
  return lteProduct(lt(x, ref) ? dsub(ref, x) : dsub(x, ref), ref, fraction);
}

/** |x − ref| ≤ ref × fraction for two price sums (`fractionF`: estimate(fraction), worked out once by the caller). */
export function sumWithin(x: PriceSum, ref: PriceSum, fraction: Decimal, fractionF: number): boolean {
  const p = plainly(x.f, ref.f, fractionF);
  return p !== 0 ? p > 0 : exactly(sumOf(x), sumOf(ref), fraction);
}

/** |x − ref| ≤ ref × fraction, for a positive ref. */
export function within(x: Decimal, ref: Decimal, fraction: Decimal): boolean {
  const p = plainly(estimate(x), estimate(ref), estimate(fraction));
  return p !== 0 ? p > 0 : exactly(x, ref, fraction);
}
