import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CachedSnapshot } from '../../backtest/data/cached-snapshot.js';
import { fillStep, type FillAssumption, type QueueState } from '../../src/fill-model/fill-model.js';
import { D, ZERO, type Decimal } from '../../src/model/decimal.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import { nearBook, nearLevels, nearTrade, P, tickTrades, Vouched } from './near-price-books.js';

const parts = (x: Decimal) => {
  const p = x as unknown as { s: number; e: number; d: number[] | null };
  return { s: p.s, e: p.e, d: p.d, zero: x === ZERO };
};

describe('fill model: a snapshot that vouches for its amounts', () => {
  it('the binary cache vouches, a text line does not', () => {
    expect(CachedSnapshot.prototype.nonNegativeAmounts).toBe(true);
    expect(new RecordedSnapshot(0, { ticker_id: 'X_Y', timestamp: 0, bids: [], asks: [] }, 100).nonNegativeAmounts).toBe(false);
  });

  it('property (seeded): every step is the one the same snapshot gives unvouched (queue, fill, state kept or not)', () => {
    // levels a few ticks around the order's price on both sides, amounts >= 0 (zeros too), the queue ahead the ZERO
    // constant (an order at the front), another zero, or an amount; trades at, through and behind the price
    const queue = fc.oneof(
      fc.constant(ZERO),
      fc.constant(D('0')),
      fc.integer({ min: 1, max: 500 }).map((n) => D(n).div(100)),
    );
    fc.assert(
      fc.property(
        nearLevels,
        nearLevels,
        queue,
        queue,
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        fc.constantFrom<FillAssumption>('pessimistic', 'optimistic'),
        fc.array(nearTrade, { maxLength: 4 }),
        (bidsAt, asksAt, queueAhead, throughSeen, side, assumption, trs) => {
          // bids at and below the price, asks above it, and a few of each on the other side of it (a crossed book)
          const wire = nearBook(bidsAt, asksAt);
          const before = new RecordedSnapshot(0, { ...wire, timestamp: 0 }, 100);
          const trades = tickTrades(trs);
          const state: QueueState = { queueAhead, throughSeen };
          const run = (after: RecordedSnapshot) =>
            fillStep({ side, priceTicks: P, left: D('1'), state, before, after, trades, hasTrades: trades.length > 0, assumption });
          const plain = run(new RecordedSnapshot(1000, wire, 100));
          const vouched = run(new Vouched(1000, wire, 100));
          expect(parts(vouched.fill)).toEqual(parts(plain.fill));
          expect(parts(vouched.state.queueAhead)).toEqual(parts(plain.state.queueAhead));
          expect(parts(vouched.state.throughSeen)).toEqual(parts(plain.state.throughSeen));
          expect(vouched.state === state).toBe(plain.state === state);
        },
      ),
      { numRuns: 3000, seed: 27 },
    );
  });
});
