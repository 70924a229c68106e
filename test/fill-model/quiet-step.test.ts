import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillStep, type FillAssumption, type QueueState, type TickTrade } from '../../src/fill-model/fill-model.js';
import { isQuietStep, quietSteps } from '../../src/fill-model/quiet-step.js';
import { D, ZERO } from '../../src/model/decimal.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import type { OrderBookResponse, WireLevel } from '../../src/venue/wire.js';

/** A text snapshot vouching for its amounts, as the binary cache's do. */
class Vouched extends RecordedSnapshot {
  override get nonNegativeAmounts(): boolean {
    return true;
  }
}

const P = 10000; // 100.00 in ticks

describe('fill model: the quiet step told beforehand', () => {
  it('property (seeded): a step told quiet is one fillStep fills nothing in and hands back the state it was given', () => {
    // levels a few ticks around the order's price on both sides (crossed books too), amounts >= 0; the queue ahead and
    // the through-quantity the ZERO constant, another zero, or an amount; trades at, through and behind the price
    const amount = fc.oneof(
      fc.constant('0'),
      fc.integer({ min: 1, max: 500 }).map((n) => (n / 100).toFixed(2)),
    );
    const levels = fc.dictionary(fc.integer({ min: -3, max: 3 }).map(String), amount, { maxKeys: 5 });
    // the ZERO constant most often: it is the quiet step's state
    const part = fc.oneof(
      { arbitrary: fc.constant(ZERO), weight: 4 },
      { arbitrary: fc.constant(D('0')), weight: 1 },
      { arbitrary: fc.integer({ min: 1, max: 500 }).map((n) => D(n).div(100)), weight: 1 },
    );
    const trade = fc.record({ dp: fc.integer({ min: -2, max: 2 }), a: fc.integer({ min: 0, max: 300 }), sell: fc.boolean() });
    let quiet = 0;
    let loud = 0;
    fc.assert(
      fc.property(
        levels,
        levels,
        part,
        part,
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        fc.constantFrom<FillAssumption>('pessimistic', 'pessimistic', 'optimistic'),
        fc.constantFrom(true, true, false),
        fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, { arbitrary: fc.array(trade, { minLength: 1, maxLength: 3 }), weight: 1 }),
        (bidsAt, asksAt, queueAhead, throughSeen, side, assumption, vouched, trs) => {
          // bids below the price, asks above it, each side reaching a few ticks past it (a touch at or through it)
          const wireOf = (m: Record<string, string>, sign: 1 | -1, desc: boolean): WireLevel[] =>
            Object.entries(m)
              .map(([k, a]) => [P + sign * Number(k), a] as const)
              .sort((x, y) => (desc ? y[0] - x[0] : x[0] - y[0]))
              .map(([t, a]) => [(t / 100).toFixed(2), a]);
          const wire: OrderBookResponse = { ticker_id: 'X_Y', timestamp: 1, bids: wireOf(bidsAt, -1, true), asks: wireOf(asksAt, 1, false) };
          const before = new Vouched(0, { ...wire, timestamp: 0 }, 100);
          const after = vouched ? new Vouched(1000, wire, 100) : new RecordedSnapshot(1000, wire, 100);
          const trades: TickTrade[] = trs.map((x) => ({ t: 500, priceTicks: P + x.dp, amount: D(x.a).div(100), takerSide: x.sell ? 'sell' : 'buy' }));
          const state: QueueState = { queueAhead, throughSeen };
          const told = quietSteps(assumption, after, trades) && isQuietStep(side, P, state, after);
          const step = fillStep({ side, priceTicks: P, left: D('1'), state, before, after, trades, hasTrades: trades.length > 0, assumption });
          if (told) {
            quiet += 1;
            expect(step.state).toBe(state);
            expect(step.fill.isZero()).toBe(true);
          } else loud += 1;
        },
      ),
      { numRuns: 4000, seed: 33 },
    );
    // both kinds were met often (a test only of steps never told quiet would hold any answer)
    expect(quiet).toBeGreaterThan(100);
    expect(loud).toBeGreaterThan(200);
  });

  it('a step the fill model fills in, or whose state it changes, is not told quiet', () => {
    const wire: OrderBookResponse = { ticker_id: 'X_Y', timestamp: 1, bids: [['99.99', '1']], asks: [['100.00', '2']] };
    const after = new Vouched(1000, wire, 100);
    // the ask at the buy's price: a proven counterparty
    expect(isQuietStep('buy', P, { queueAhead: ZERO, throughSeen: ZERO }, after)).toBe(false);
    expect(isQuietStep('buy', P - 1, { queueAhead: ZERO, throughSeen: ZERO }, after)).toBe(true);
    // a queue ahead, or through-quantity counted before, may change
    expect(isQuietStep('buy', P - 1, { queueAhead: D('0.5'), throughSeen: ZERO }, after)).toBe(false);
    expect(isQuietStep('buy', P - 1, { queueAhead: ZERO, throughSeen: D('0.5') }, after)).toBe(false);
    expect(quietSteps('optimistic', after, [])).toBe(false);
    expect(quietSteps('pessimistic', after, [{ t: 500, priceTicks: P, amount: D('1'), takerSide: 'sell' }])).toBe(false);
    expect(quietSteps('pessimistic', new RecordedSnapshot(1000, wire, 100), [])).toBe(false);
    expect(quietSteps('pessimistic', after, [])).toBe(true);
  });
});
