import type { Balances } from '../model/balance.js';
import type { OrderBook } from '../model/book.js';
import { bestPrice } from '../model/book-levels.js';
import type { Decimal } from '../model/decimal.js';
import { cmp } from '../model/decimal-compare.js';

/**
 * A book that repeats the previous one: same timestamp, best bid and best ask (compared as values, what a key
 * `${timestamp}|${bid}|${ask}` compared, without formatting two prices per poll).
 */
export function sameBookTop(a: OrderBook, b: OrderBook): boolean {
  return a.timestamp === b.timestamp && samePrice(bestPrice(a, 'bids'), bestPrice(b, 'bids')) && samePrice(bestPrice(a, 'asks'), bestPrice(b, 'asks'));
}

function samePrice(x: Decimal | undefined, y: Decimal | undefined): boolean {
  return x === undefined || y === undefined ? x === y : x.eq(y);
}

/**
 * True when two balance snapshots have the same values under the same tickers in the same order, i.e. the same journal
 * form (fmt writes equal values alike and different values differently), compared without formatting either: the
 * very same records (a venue that reuses unchanged values, as the backtest's does) cost a reference check each.
 */
export function sameBalanceValues(a: Balances, b: Balances): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i]) return false;
    const x = a[k]!;
    const y = b[k]!;
    if (x !== y && (cmp(x.available, y.available) !== 0 || cmp(x.freeze, y.freeze) !== 0)) return false;
  }
  return true;
}
