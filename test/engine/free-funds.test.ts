import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freeFunds } from '../../src/engine/free-funds.js';
import { moneyLock } from '../../src/engine/gate.js';
import { leftOf } from '../../src/engine/journal-replay.js';
import type { TrackedOrder } from '../../src/engine/order-tracker.js';
import { D, type Decimal } from '../../src/model/decimal.js';
import { marketFixture } from '../../src/strategy/testing.js';
import { drawnOrder, trackerOf } from '../helpers/tracked-orders.js';

const market = marketFixture();

/** The estimate spelt out with decimal.js's own operations: what freeFunds' small-integer arithmetic must equal. */
function naive(available: { stock: Decimal; money: Decimal }, startedAt: number, live: readonly TrackedOrder[]) {
  let { stock, money } = available;
  for (const o of live) {
    if (o.confirmedAt !== undefined && o.confirmedAt < startedAt) continue;
    const left = leftOf(o);
    const [oStock, oMoney] = o.market.split('_');
    if (o.side === 'buy' && oMoney === market.money) money = money.minus(left.times(o.price).times(D(1).plus(market.takerFee)));
    else if (o.side === 'sell' && oStock === market.stock) stock = stock.minus(left);
  }
  return { stock, money };
}

describe('freeFunds', () => {
  it('property (seeded): the snapshot available less what the unseen live orders lock, as decimal.js works it out', () => {
    fc.assert(
      fc.property(
        fc.array(drawnOrder, { maxLength: 8 }),
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.integer({ min: 0, max: 20 }),
        (orders, stockUnits, moneyCents, startedAt) => {
          const tracker = trackerOf(orders);
          const available = { stock: D(stockUnits).div(1e6), money: D(moneyCents).div(100) };
          const balances = { startedAt, value: { BTC: { available: available.stock, freeze: D(0) }, USDT: { available: available.money, freeze: D(0) } } };
          const got = freeFunds(market, balances, tracker.liveValues())!;
          const want = naive(available, startedAt, tracker.liveOrders());
          expect(got.stock.toFixed()).toBe(want.stock.toFixed());
          expect(got.money.toFixed()).toBe(want.money.toFixed());
          // and the lock the gate asks for one order is that same product
          expect(moneyLock(market, available.stock, D(1)).toFixed()).toBe(available.stock.times(D(1).plus(market.takerFee)).toFixed());
        },
      ),
      { numRuns: 400 },
    );
  });
});
