import type { BookLevel, OrderBook } from '../model/book.js';
import type { Decimal } from '../model/decimal.js';
import { priceStep } from '../rules/steps.js';
import type { BookSide } from './order-book.js';
import type { MarketEngine } from './market-engine.js';
import { fromUnits } from './units.js';

export interface PublicBookOptions {
  /** Entries a side, 0-100; 0 or absent = 100. */
  readonly limit?: number;
  /** Aggregation 0-5: level L groups prices on a grid of 10^L price steps. */
  readonly level?: number;
}

/**
 * The public depth of one market: rpi orders are excluded (api-v4.md rule 1). Aggregation rounds
 * each ask UP and each bid DOWN to the coarser grid, so an aggregated level never shows a better price
 * than any order in it.
 */
export function publicBook(engine: MarketEngine, scale: number, nowMs: number, options: PublicBookOptions = {}): OrderBook {
  const limit = options.limit === undefined || options.limit === 0 ? 100 : options.limit;
  const grid = 10 ** (options.level ?? 0);
  const step = priceStep(engine.market);
  return {
    market: engine.market.name,
    timestamp: Math.floor(nowMs / 1000),
    asks: side(engine.book.asks, limit, grid, step, scale),
    bids: side(engine.book.bids, limit, grid, step, scale),
  };
}

function side(book: BookSide, limit: number, grid: number, step: Decimal, scale: number): BookLevel[] {
  const out: BookLevel[] = [];
  let key: number | undefined;
  let sum = 0n;
  const isAsk = book.side === 'sell';
  for (const level of book.fromBest()) {
    let visible = 0n;
    for (let i = level.head; i < level.orders.length; i++) {
      const o = level.orders[i]!;
      if (!o.rpi) visible += o.leftU;
    }
    if (visible === 0n) continue;
    const k = grid === 1 ? level.ticks : isAsk ? Math.ceil(level.ticks / grid) * grid : Math.floor(level.ticks / grid) * grid;
    if (key !== undefined && k !== key) {
      out.push({ price: step.mul(key), amount: fromUnits(sum, scale) });
      if (out.length >= limit) return out;
      sum = 0n;
    }
    key = k;
    sum += visible;
  }
  if (key !== undefined && out.length < limit) out.push({ price: step.mul(key), amount: fromUnits(sum, scale) });
  return out;
}
