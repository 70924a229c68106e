import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { Order } from '../../src/model/order.js';
import { liveRiskState } from '../../src/engine/live-risk-state.js';
import { OrderTracker } from '../../src/engine/order-tracker.js';
import { riskStateOf } from '../../src/engine/risk-limits.js';

/** One step of an order's life the tracker can take; the states and `left`s they leave are what the risk state sums. */
const step = fc.oneof(
  fc.record({
    kind: fc.constant('track' as const),
    strategy: fc.constantFrom('a', 'b'),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    amount: fc.integer({ min: 1, max: 50 }),
  }),
  fc.record({ kind: fc.constant('open' as const), pick: fc.nat(), left: fc.integer({ min: 0, max: 50 }) }),
  fc.record({ kind: fc.constant('deal' as const), pick: fc.nat(), amount: fc.integer({ min: 1, max: 20 }) }),
  fc.record({
    kind: fc.constant('move' as const),
    pick: fc.nat(),
    to: fc.constantFrom('unknown' as const, 'canceled' as const, 'rejected' as const, 'filled' as const),
  }),
);

describe('liveRiskState', () => {
  it('property (seeded): equals riskStateOf over the strategy’s live views, for every mix of orders and their fates', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const tracker = new OrderTracker({ now: () => 5 });
        const ids: string[] = [];
        let dealId = 0;
        for (const s of steps) {
          if (s.kind === 'track') {
            const id = `x-${ids.length}`;
            ids.push(id);
            tracker.track({
              clientOrderId: id,
              strategyId: s.strategy,
              market: 'BTC_USDT',
              side: s.side,
              kind: 'limit',
              price: D('100'),
              amount: D(s.amount).div(10),
            });
            continue;
          }
          if (ids.length === 0) continue;
          const id = ids[s.pick % ids.length]!;
          const o = tracker.get(id)!;
          if (s.kind === 'open') tracker.applyVenueOrder(id, venueOf(o.clientOrderId, o.side, o.amount.toFixed(), D(s.left).div(10).toFixed()));
          else if (s.kind === 'deal') {
            dealId += 1;
            tracker.applyDeal({
              id: dealId,
              time: 1,
              market: 'BTC_USDT',
              side: o.side,
              role: 'maker',
              amount: D(s.amount).div(10),
              price: D('100'),
              deal: D(s.amount).times(10),
              fee: D('0'),
              orderId: 9,
              clientOrderId: id,
            });
          } else tracker.move(id, s.to);
        }
        const position = D('0.3');
        const times = [1, 2];
        for (const strategy of ['a', 'b']) {
          const fast = liveRiskState(tracker.liveValues(), strategy, position, times, false);
          const slow = riskStateOf(tracker.live(strategy), position, times, false);
          expect(fast.openOrders).toBe(slow.openOrders);
          expect(fast.openBuyLeft.toFixed()).toBe(slow.openBuyLeft.toFixed());
          expect(fast.openSellLeft.toFixed()).toBe(slow.openSellLeft.toFixed());
          expect(fast.position).toBe(slow.position);
          expect(fast.recentOrderTimes).toBe(slow.recentOrderTimes);
        }
      }),
      { seed: 27, numRuns: 500 },
    );
  });
});

function venueOf(clientOrderId: string, side: 'buy' | 'sell', amount: string, left: string): Order {
  return {
    orderId: 9,
    clientOrderId,
    market: 'BTC_USDT',
    side,
    kind: 'limit',
    timestamp: 1,
    amount: D(amount),
    price: D('100'),
    left: D(left),
    dealStock: D(amount).minus(D(left)),
    dealMoney: D('0'),
    dealFee: D('0'),
    postOnly: false,
    ioc: false,
    rpi: false,
    stp: 'no',
    status: 'NEW',
  };
}
