import fc from 'fast-check';
import { OrderTracker } from '../../src/engine/order-tracker.js';
import { D } from '../../src/model/decimal.js';

/** A live order as the free-funds properties draw it: price in cents, amount in 1e-6, dealt in percent, confirmed at (ms). */
export const drawnOrder = fc.record({
  market: fc.constantFrom('BTC_USDT', 'ETH_USDT', 'BTC_EUR'),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  price: fc.integer({ min: 1, max: 9_999_999 }),
  amount: fc.integer({ min: 1, max: 5_000_000 }),
  dealt: fc.integer({ min: 0, max: 100 }),
  confirmed: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
});

export type DrawnOrder = typeof drawnOrder extends fc.Arbitrary<infer T> ? T : never;

/** A tracker holding the drawn orders: each tracked at its confirmation time, confirmed ones open with their dealt part. */
export function trackerOf(orders: readonly DrawnOrder[]): OrderTracker {
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
  return tracker;
}
