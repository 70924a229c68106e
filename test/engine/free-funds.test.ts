import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freeFunds } from '../../src/engine/free-funds.js';
import { moneyLock } from '../../src/engine/gate.js';
import { leftOf } from '../../src/engine/journal-replay.js';
import { OrderTracker, type TrackedOrder } from '../../src/engine/order-tracker.js';
import { D, type Decimal } from '../../src/model/decimal.js';
import { marketFixture } from '../../src/strategy/testing.js';

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

const order = fc.record({
  market: fc.constantFrom('BTC_USDT', 'ETH_USDT', 'BTC_EUR'),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  price: fc.integer({ min: 1, max: 9_999_999 }),
  amount: fc.integer({ min: 1, max: 5_000_000 }),
  dealt: fc.integer({ min: 0, max: 100 }),
  confirmed: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
});

describe('freeFunds', () => {
  it('property (seeded): the snapshot available less what the unseen live orders lock, as decimal.js works it out', () => {
    fc.assert(
      fc.property(
        fc.array(order, { maxLength: 8 }),
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.integer({ min: 0, max: 20 }),
        (orders, stockUnits, moneyCents, startedAt) => {
          let now = 0;
          const tracker = new OrderTracker({ now: () => now });
          orders.forEach((o, i) => {
            now = o.confirmed ?? 0;
            const amount = D(o.amount).div(1e6);
            tracker.track(
              { clientOrderId: `x-${i}`, strategyId: 's', market: o.market, side: o.side, kind: 'limit', price: D(o.price).div(100), amount },
              o.confirmed === undefined ? undefined : { state: 'open', dealt: amount.times(o.dealt).div(100).toDecimalPlaces(6) },
            );
          });
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
