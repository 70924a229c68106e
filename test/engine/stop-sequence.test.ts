import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../src/engine/run-summary.js';
import { D } from '../../src/model/decimal.js';
import type { Order } from '../../src/model/order.js';
import { placeLimit } from '../../src/strategy/intents.js';
import type { TradingApi } from '../../src/venue/trading-api.js';
import { NetworkError } from '../../src/venue/errors.js';
import { FakeVenue } from './fake-venue.js';
import { market, strategyOf, virtualRig } from './virtual-rig.js';

/** A venue whose cancels and open-orders list fail from a moment on (an outage during the stop). */
class FailingVenue extends FakeVenue {
  down = false;
  override async cancel(r: Parameters<TradingApi['cancel']>[0]): Promise<Order> {
    if (this.down) throw new NetworkError('connect ECONNREFUSED', { endpoint: '/api/v4/order/cancel' });
    return super.cancel(r);
  }
  override async openOrders(q: Parameters<TradingApi['openOrders']>[0] = {}): Promise<Order[]> {
    if (this.down) throw new NetworkError('connect ECONNREFUSED', { endpoint: '/api/v4/orders' });
    return super.openOrders(q);
  }
}

const quoter = strategyOf((_ctx, orders) => (orders.length > 0 ? [] : [placeLimit({ side: 'buy', price: D('99'), amount: D('0.02') })]));

describe('the stop sequence reports what it could not confirm', () => {
  it('cancels and reads the venue afterwards: open at stop is what the venue lists of ours', async () => {
    const venue = new FakeVenue(market, '100', '101');
    const rig = virtualRig(venue, [{ id: 'p', definition: quoter, params: {}, market: market.name }]);
    await rig.runtime.start();
    await rig.advance(500);
    expect(venue.orders.size).toBe(1);
    const stopping = rig.runtime.stop();
    await rig.advance(1000);
    const summary = await stopping;
    expect(summary).toMatchObject({ openOrdersLeft: 0, openAtStop: [], inDoubt: [] });
    expect(venue.orders.size).toBe(0);
  });

  it('a venue that cannot be reached at the stop: the live order is named in doubt, not counted as gone', async () => {
    const venue = new FailingVenue(market, '100', '101');
    const rig = virtualRig(venue, [{ id: 'p', definition: quoter, params: {}, market: market.name }]);
    await rig.runtime.start();
    await rig.advance(500);
    const id = [...venue.orders.keys()][0]!;
    venue.down = true;
    const stopping = rig.runtime.stop();
    await rig.advance(15_000);
    const summary = await stopping;
    expect(summary.inDoubt).toEqual([id]);
    expect(summary.openOrdersLeft).toBe(1);
    expect(formatSummary(summary)).toMatch(new RegExp(`IN DOUBT .*${id}`));
  });
});
