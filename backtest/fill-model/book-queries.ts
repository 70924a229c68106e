/** What the fill model asks of a recorded snapshot, by integer price ticks (no Decimal parsing of untouched levels). */
import { ZERO, type Decimal } from '../../src/model/decimal.js';
import { dadd } from '../../src/model/decimal-small.js';
import type { Side } from '../../src/model/order.js';
import type { RecordedSnapshot } from '../../src/venue/recording-format.js';

/** Displayed quantity at exactly `ticks` on the order's OWN side (the queue it joins). */
export function sameSideQty(s: RecordedSnapshot, side: Side, ticks: number): Decimal {
  const t = side === 'buy' ? s.bidTicks() : s.askTicks();
  const levels = side === 'buy' ? s.bids : s.asks;
  for (let i = 0; i < t.length; i++) {
    const v = t[i]!;
    if (v === ticks) return levels[i]!.amount;
    // levels are best-first: stop once past the price
    if (side === 'buy' ? v < ticks : v > ticks) break;
  }
  return ZERO;
}

/**
 * Opposite-side quantity resting at or through the order's price (asks <= P for a buy, bids >= P for
 * a sell): counterparties that would have traded with the order had it been in the book.
 */
export function throughQty(s: RecordedSnapshot, side: Side, ticks: number): Decimal {
  const t = side === 'buy' ? s.askTicks() : s.bidTicks();
  const levels = side === 'buy' ? s.asks : s.bids;
  let sum = ZERO;
  for (let i = 0; i < t.length; i++) {
    const v = t[i]!;
    if (side === 'buy' ? v > ticks : v < ticks) break;
    sum = dadd(sum, levels[i]!.amount);
  }
  return sum;
}

/** True when the opposite side's best is at or through the price (the order would take at once). */
export function crossesBook(s: RecordedSnapshot, side: Side, ticks: number): boolean {
  const best = side === 'buy' ? s.askTicks()[0] : s.bidTicks()[0];
  return best !== undefined && (side === 'buy' ? best <= ticks : best >= ticks);
}

/** Mid price in ticks (a float), undefined on a one-sided book. */
export function midTicks(s: RecordedSnapshot): number | undefined {
  const a = s.askTicks()[0];
  const b = s.bidTicks()[0];
  return a === undefined || b === undefined ? undefined : (a + b) / 2;
}
