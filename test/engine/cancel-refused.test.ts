import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { Order } from '../../src/model/order.js';
import { cancel, placeLimit } from '../../src/strategy/intents.js';
import { InnerValidationError } from '../../src/venue/errors.js';
import type { TradingApi } from '../../src/venue/trading-api.js';
import { FakeVenue } from './fake-venue.js';
import { market, strategyOf, virtualRig } from './virtual-rig.js';

/** Refuses the first cancel with a business error other than "not found": the order stays resting. */
class RefusingVenue extends FakeVenue {
  refusals = 1;
  override async cancel(r: Parameters<TradingApi['cancel']>[0]): Promise<Order> {
    if (this.refusals > 0) {
      this.refusals -= 1;
      this.calls.push('cancel refused');
      throw new InnerValidationError('Inner validation failed', { endpoint: '/api/v4/order/cancel', status: 400, venueCode: 10 });
    }
    return super.cancel(r);
  }
}

/** Places one bid once, then cancels it whenever it shows open with no cancel in flight. */
let placed = false;
const placeThenCancel = strategyOf((_ctx, orders) => {
  if (!placed) {
    placed = true;
    return [placeLimit({ side: 'buy', price: D('99'), amount: D('1'), tag: 'bid' })];
  }
  const bid = orders.find((o) => o.state === 'open' && !o.cancelRequested);
  return bid === undefined ? [] : [cancel(bid.clientOrderId)];
});

describe('a cancel the venue refused', () => {
  it('ends its in-flight mark: the strategy sees the order cancellable again and its next cancel goes out', async () => {
    const venue = new RefusingVenue(market, '100', '101');
    const rig = virtualRig(venue, [{ id: 'p', definition: placeThenCancel, params: {}, market: market.name }]);
    await rig.runtime.start();
    await rig.advance(1000);
    // before the stop (whose cancel-all would send one anyway)
    expect(venue.calls.filter((c) => c.startsWith('cancel'))).toEqual(['cancel refused', expect.stringMatching(/^cancel p-/)]);
    expect(rig.of('canceled')).toHaveLength(1);
    await rig.runtime.stop();
  });
});
