import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillStep, type FillAssumption, type QueueState } from '../../src/fill-model/fill-model.js';
import { isQuietStep, quietSteps } from '../../src/fill-model/quiet-step.js';
import { D, ZERO } from '../../src/model/decimal.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import type { OrderBookResponse } from '../../src/venue/wire.js';
import { nearBook, nearLevels, nearTrade, P, tickTrades, Vouched } from './near-price-books.js';

describe('fill model: the quiet step told beforehand', () => {
  it('property (seeded): a step told quiet is one fillStep fills nothing in and hands back the state it was given', () => {
    // levels a few ticks around the order's price on both sides (crossed books too), amounts >= 0; the queue ahead and
    // the through-quantity the ZERO constant, another zero, or an amount; trades at, through and behind the price
    // the ZERO constant most often: it is the quiet step's state
    const part = fc.oneof(
      { arbitrary: fc.constant(ZERO), weight: 4 },
      { arbitrary: fc.constant(D('0')), weight: 1 },
      { arbitrary: fc.integer({ min: 1, max: 500 }).map((n) => D(n).div(100)), weight: 1 },
    );
    const trade = nearTrade;
    let quiet = 0;
    let loud = 0;
    fc.assert(
      fc.property(
        nearLevels,
        nearLevels,
        part,
        part,
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        fc.constantFrom<FillAssumption>('pessimistic', 'pessimistic', 'optimistic'),
        fc.constantFrom(true, true, false),
        fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, { arbitrary: fc.array(trade, { minLength: 1, maxLength: 3 }), weight: 1 }),
        (bidsAt, asksAt, queueAhead, throughSeen, side, assumption, vouched, trs) => {
          // bids below the price, asks above it, each side reaching a few ticks past it (a touch at or through it)
          const wire = nearBook(bidsAt, asksAt);
          const before = new Vouched(0, { ...wire, timestamp: 0 }, 100);
          const after = vouched ? new Vouched(1000, wire, 100) : new RecordedSnapshot(1000, wire, 100);
          const trades = tickTrades(trs);
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
