import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { OrderState } from '../../src/strategy/context.js';
import { LazyRiskState } from '../../src/engine/lazy-risk-state.js';
import { OrderTracker } from '../../src/engine/order-tracker.js';
import { riskStateOf } from '../../src/engine/risk-limits.js';
import { testDeal } from '../helpers/deal.js';

const STATES: OrderState[] = ['pending', 'open', 'partially-filled', 'filled', 'canceled', 'rejected', 'unknown'];

const order = fc.record({
  strategy: fc.constantFrom('a', 'b'),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  amount: fc.integer({ min: 1, max: 40 }),
  dealt: fc.integer({ min: 0, max: 40 }),
  state: fc.constantFrom(...STATES),
});

describe('LazyRiskState', () => {
  it("property (seeded): every figure is riskStateOf's over the strategy's live orders, whichever is read first", () => {
    fc.assert(
      fc.property(
        fc.array(order, { maxLength: 12 }),
        fc.integer({ min: -50, max: 50 }),
        fc.boolean(),
        fc.constantFrom('openBuyLeft', 'openSellLeft', 'openOrders'),
        (orders, position, halted, first) => {
          const t = new OrderTracker({ now: () => 1 });
          orders.forEach((o, i) => {
            const id = `${o.strategy}-${i}`;
            t.track(
              { clientOrderId: id, strategyId: o.strategy, market: 'BTC_USDT', side: o.side, kind: 'limit', price: D('100'), amount: D(o.amount).div(10) },
              { state: o.state },
            );
            if (o.dealt > 0) t.applyDeal(testDeal(i + 1, String(Math.min(o.dealt, o.amount) / 10), { clientOrderId: id }));
          });
          const times = [1, 2, 3];
          const pos = D(position).div(100);
          const lazy = new LazyRiskState(t, 'a', pos, times, halted);
          const eager = riskStateOf(t.live('a'), pos, times, halted);
          // the first figure read makes the others: each read order gives the same figures
          void lazy[first];
          expect(lazy.openBuyLeft.eq(eager.openBuyLeft) && lazy.openBuyLeft.toFixed() === eager.openBuyLeft.toFixed()).toBe(true);
          expect(lazy.openSellLeft.eq(eager.openSellLeft) && lazy.openSellLeft.toFixed() === eager.openSellLeft.toFixed()).toBe(true);
          expect(lazy.openOrders).toBe(eager.openOrders);
          expect(lazy.position).toBe(eager.position);
          expect(lazy.recentOrderTimes).toBe(times);
          expect(lazy.halted).toBe(halted);
        },
      ),
      { seed: 33, numRuns: 1000 },
    );
  });

  it('reads nothing of the tracker while no live figure is asked', () => {
    let asked = 0;
    const t = new OrderTracker({ now: () => 1 });
    const live = t.live.bind(t);
    t.live = (id: string) => {
      asked += 1;
      return live(id);
    };
    const s = new LazyRiskState(t, 'a', D(0), [], false);
    expect([s.position.toFixed(), s.halted, s.recentOrderTimes.length, asked]).toEqual(['0', false, 0, 0]);
    expect(s.openOrders).toBe(0);
    void s.openBuyLeft;
    expect(asked).toBe(1);
  });
});
