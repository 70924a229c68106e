import fc from 'fast-check';
import type { TickTrade } from '../../src/fill-model/fill-model.js';
import { D } from '../../src/model/decimal.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import type { OrderBookResponse, WireLevel } from '../../src/venue/wire.js';

/** The order's price in the fill-model properties: 100.00 in ticks of 0.01. */
export const P = 10000;

/** The same text snapshot, vouching for its amounts as the binary cache's do (fillStep then skips a lookup). */
export class Vouched extends RecordedSnapshot {
  override get nonNegativeAmounts(): boolean {
    return true;
  }
}

/** One side's levels a few ticks either side of P (tick offset → amount >= 0, zeros too). */
export const nearLevels = fc.dictionary(
  fc.integer({ min: -3, max: 3 }).map(String),
  fc.oneof(
    fc.constant('0'),
    fc.integer({ min: 1, max: 500 }).map((n) => (n / 100).toFixed(2)),
  ),
  { maxKeys: 5 },
);

/** A trade a few ticks around P, as drawn: offset, amount in cents, taker side. */
export const nearTrade = fc.record({ dp: fc.integer({ min: -2, max: 2 }), a: fc.integer({ min: 0, max: 300 }), sell: fc.boolean() });

/**
 * The wire book of two drawn sides: bids at P minus each offset, asks at P plus it (each reaching past P when the offset
 * is negative: a touch at or through the price, a crossed book), each side in the venue's order.
 */
export function nearBook(bidsAt: Record<string, string>, asksAt: Record<string, string>): OrderBookResponse {
  const wireOf = (m: Record<string, string>, sign: 1 | -1, desc: boolean): WireLevel[] =>
    Object.entries(m)
      .map(([k, a]) => [P + sign * Number(k), a] as const)
      .sort((x, y) => (desc ? y[0] - x[0] : x[0] - y[0]))
      .map(([t, a]) => [(t / 100).toFixed(2), a]);
  return { ticker_id: 'X_Y', timestamp: 1, bids: wireOf(bidsAt, -1, true), asks: wireOf(asksAt, 1, false) };
}

/** The drawn trades, all at t 500 (between the two snapshots at 0 and 1000). */
export const tickTrades = (trs: readonly { dp: number; a: number; sell: boolean }[]): TickTrade[] =>
  trs.map((x) => ({ t: 500, priceTicks: P + x.dp, amount: D(x.a).div(100), takerSide: x.sell ? 'sell' : 'buy' }));
