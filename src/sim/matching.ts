import type { Side } from '../model/order.js';
import type { BookSide, OrderBookSides } from './order-book.js';
import type { SimOrder } from './sim-order.js';

/** What matching needs from the exchange: settle one fill, and finish a resting order cancelled by STP. */
export interface MatchHooks {
  /** Settles `units` of stock between a resting maker and the incoming taker at the maker's price. */
  fill(maker: SimOrder, taker: SimOrder, units: bigint): void;
  /** A resting order cancelled by self-trade prevention; matching has already taken it off the book. */
  cancelResting(order: SimOrder): void;
}

/**
 * How matching ended for the incoming order:
 * `filled` nothing left; `exhausted` no more crossing liquidity (the rest may rest or be cancelled);
 * `stp-cancel` self-trade prevention cancels the incoming remainder (cancel_new / cancel_both).
 */
export type MatchEnd = 'filled' | 'exhausted' | 'stp-cancel';

function crosses(side: Side, takerTicks: number, levelTicks: number): boolean {
  return side === 'buy' ? levelTicks <= takerTicks : levelTicks >= takerTicks;
}

/** True when an order at `ticks` would trade against the opposite side at once (post-only check). */
export function wouldTake(book: OrderBookSides, side: Side, ticks: number): boolean {
  const best = book.opposite(side).best();
  return best !== undefined && crosses(side, ticks, best.ticks);
}

/**
 * Price-time priority: walks the opposite side from the best level, oldest order first, while the
 * level crosses the taker's limit. Every fill happens at the resting (maker) order's price.
 * Self-trade prevention follows the TAKER's mode when it meets its own account's resting order:
 * `no` trades with itself, `cancel_old` cancels the resting order and continues, `cancel_new` stops
 * and cancels the taker's remainder, `cancel_both` does both.
 */
export function matchIncoming(book: OrderBookSides, taker: SimOrder, hooks: MatchHooks): MatchEnd {
  const opposite: BookSide = book.opposite(taker.side);
  while (taker.leftU !== 0n) {
    const level = opposite.best();
    if (level === undefined || !crosses(taker.side, taker.ticks, level.ticks)) return 'exhausted';
    while (level.size > 0 && taker.leftU !== 0n) {
      const maker = level.front()!;
      if (maker.accountId === taker.accountId && taker.stp !== 'no') {
        if (taker.stp === 'cancel_new') return 'stp-cancel';
        level.shift();
        hooks.cancelResting(maker);
        if (taker.stp === 'cancel_both') {
          if (level.size === 0) opposite.dropLevel(level.ticks);
          return 'stp-cancel';
        }
        continue;
      }
      hooks.fill(maker, taker, taker.leftU < maker.leftU ? taker.leftU : maker.leftU);
      if (maker.leftU === 0n) level.shift();
    }
    if (level.size === 0) opposite.dropLevel(level.ticks);
  }
  return 'filled';
}
