/**
 * What the fill model asks of a recorded snapshot, by integer price ticks, through the snapshot's level queries: no
 * Decimal parsing of untouched levels, and no arrays of a side's levels or ticks built for a look at a few of them.
 */
import { ZERO, type Decimal } from '../model/decimal.js';
import type { Side } from '../model/order.js';
import type { BookSideName, RecordedSnapshot } from '../recording/recording-format.js';

/** The book side an order rests on, and the side it would trade with. */
export const ownSide = (side: Side): BookSideName => (side === 'buy' ? 'bids' : 'asks');
export const oppositeSide = (side: Side): BookSideName => (side === 'buy' ? 'asks' : 'bids');

/** Displayed quantity at exactly `ticks` on the order's OWN side (the queue it joins). */
export function sameSideQty(s: RecordedSnapshot, side: Side, ticks: number): Decimal {
  const name = ownSide(side);
  // levels are best-first: the scan stops once past the price
  const i = s.levelIndexAt(name, ticks);
  return i < 0 ? ZERO : s.levelAmount(name, i);
}

/** How many of the opposite side's levels (best first) are at or through `ticks`: those an order there would meet. */
export function levelsThrough(s: RecordedSnapshot, side: Side, ticks: number): number {
  return s.levelsAtOrThrough(oppositeSide(side), ticks);
}

/**
 * Opposite-side quantity resting at or through the order's price (asks <= P for a buy, bids >= P for
 * a sell): counterparties that would have traded with the order had it been in the book.
 */
export function throughQty(s: RecordedSnapshot, side: Side, ticks: number): Decimal {
  return s.amountSum(oppositeSide(side), levelsThrough(s, side, ticks));
}

/** True when the opposite side's best is at or through the price (the order would take at once). */
export function crossesBook(s: RecordedSnapshot, side: Side, ticks: number): boolean {
  const name = oppositeSide(side);
  if (s.levelCount(name) === 0) return false;
  const best = s.levelTicks(name, 0);
  return side === 'buy' ? best <= ticks : best >= ticks;
}

/** Mid price, exact, from the best levels' own prices; undefined on a one-sided book. */
export function midPrice(s: RecordedSnapshot): Decimal | undefined {
  if (s.levelCount('asks') === 0 || s.levelCount('bids') === 0) return undefined;
  return s.levelPrice('asks', 0).add(s.levelPrice('bids', 0)).div(2);
}

/** Mid price in ticks (a float, for charts), undefined on a one-sided book. */
export function midTicks(s: RecordedSnapshot): number | undefined {
  if (s.levelCount('asks') === 0 || s.levelCount('bids') === 0) return undefined;
  return (s.levelTicks('asks', 0) + s.levelTicks('bids', 0)) / 2;
}
