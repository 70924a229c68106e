import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { Order } from '../../src/model/order.js';
import { canMove, OrderTracker, stateFromVenue } from '../../src/engine/order-tracker.js';
import { testDeal } from '../helpers/deal.js';

const clock = { now: () => 1000 };
const base = { clientOrderId: 'mm-x-1', strategyId: 'mm', market: 'BTC_USDT', side: 'buy' as const, kind: 'limit' as const, price: D('100'), amount: D('1') };
const venue = (o: Partial<Order>): Order => ({
  orderId: 7,
  clientOrderId: 'mm-x-1',
  market: 'BTC_USDT',
  side: 'buy',
  kind: 'limit',
  timestamp: 1,
  amount: D('1'),
  price: D('100'),
  left: D('1'),
  dealStock: D('0'),
  dealMoney: D('0'),
  dealFee: D('0'),
  postOnly: false,
  ioc: false,
  rpi: false,
  stp: 'no',
  status: 'NEW',
  ...o,
});
const deal = (id: number, amount: string) => testDeal(id, amount);

describe('OrderTracker', () => {
  it('pending → open → partially filled → filled, fills from deals once each', () => {
    const changes: string[] = [];
    const t = new OrderTracker(clock, (_s, o) => changes.push(o.state));
    t.track(base);
    expect(t.live('mm')).toHaveLength(1);
    t.applyVenueOrder('mm-x-1', venue({}));
    expect(t.get('mm-x-1')?.state).toBe('open');
    expect(t.applyDeal(deal(1, '0.4')).fresh).toBe(true);
    expect(t.applyDeal(deal(1, '0.4')).fresh).toBe(false);
    expect(t.get('mm-x-1')?.state).toBe('partially-filled');
    expect(t.live('mm')[0]?.left.toFixed()).toBe('0.6');
    t.applyDeal(deal(2, '0.6'));
    expect(t.get('mm-x-1')?.state).toBe('filled');
    expect(t.live('mm')).toHaveLength(0);
    expect(changes).toEqual(['pending', 'open', 'partially-filled', 'filled']);
  });

  it('never lets stale news resurrect a finished order, nor double-count a fill the accept already showed', () => {
    const t = new OrderTracker(clock);
    t.track(base);
    t.applyDeal(deal(1, '1'));
    expect(t.get('mm-x-1')?.state).toBe('filled');
    expect(t.applyVenueOrder('mm-x-1', venue({ left: D('1') }))).toBe(false);
    expect(t.get('mm-x-1')?.state).toBe('filled');

    const u = new OrderTracker(clock);
    u.track(base);
    u.applyVenueOrder('mm-x-1', venue({ left: D('0.5'), dealStock: D('0.5') }));
    u.applyDeal(deal(3, '0.5'));
    expect(u.get('mm-x-1')?.state).toBe('partially-filled');
    expect(u.left(u.get('mm-x-1')!).toFixed()).toBe('0.5');
  });

  it('unknown is live until reconciled, and a deal proves the order reached the venue', () => {
    const t = new OrderTracker(clock);
    t.track(base);
    t.move('mm-x-1', 'unknown');
    expect(t.live('mm')[0]?.state).toBe('unknown');
    t.applyDeal(deal(9, '0.2'));
    expect(t.get('mm-x-1')).toMatchObject({ state: 'partially-filled', orderId: 7 });
  });

  it('cancel requests are not doubled and are visible to strategies', () => {
    const t = new OrderTracker(clock);
    t.track(base);
    t.applyVenueOrder('mm-x-1', venue({}));
    expect(t.requestCancel('mm-x-1')).toBe(true);
    expect(t.requestCancel('mm-x-1')).toBe(false);
    expect(t.live('mm')[0]?.cancelRequested).toBe(true);
    t.clearCancel('mm-x-1');
    expect(t.requestCancel('mm-x-1')).toBe(true);
  });

  it('IOC remainders are cancelled; states come from left/dealStock, not the status', () => {
    const t = new OrderTracker(clock);
    t.track({ ...base, ioc: true });
    t.applyVenueOrder('mm-x-1', venue({ left: D('0.3'), dealStock: D('0.7') }), { ioc: true });
    expect(t.get('mm-x-1')?.state).toBe('canceled');
    expect(stateFromVenue(venue({ status: 'FILLED' }))).toBe('open');
    expect(canMove('filled', 'open')).toBe(false);
    expect(canMove('unknown', 'rejected')).toBe(true);
  });
});
