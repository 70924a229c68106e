import { describe, expect, it } from 'vitest';
import { misfit } from '../../src/engine/fill-checks.js';
import { OrderTracker } from '../../src/engine/order-tracker.js';
import { D } from '../../src/model/decimal.js';
import { testDeal } from '../helpers/deal.js';

// the deal's own time and fee, and the order's id, as this file tracks it
const deal = (id: number, amount: string) => testDeal(id, amount, { time: id, fee: D('0'), clientOrderId: 'x-1' });

describe('misfit: a deal that would overfill its order', () => {
  it('counts the deals applied already: what fits alone does not fit on top of them', () => {
    const tracker = new OrderTracker({ now: () => 1 });
    const order = tracker.track({ clientOrderId: 'x-1', strategyId: 's', market: 'BTC_USDT', side: 'buy', kind: 'limit', price: D('100'), amount: D('1') });
    expect(misfit(order, deal(1, '0.6'))).toBeUndefined();
    tracker.applyDeal(deal(1, '0.6'));
    expect(order.dealt.toFixed()).toBe('0.6');
    expect(misfit(order, deal(2, '0.4'))).toBeUndefined();
    expect(misfit(order, deal(3, '0.5'))).toBe("it would take the order's filled amount to 1.1 of 1");
    tracker.setFinalDealt('x-1', D('0.9'));
    expect(misfit(order, deal(4, '0.35'))).toBe("it would take the order's filled amount to 0.95, above the 0.9 the venue reports executed");
  });
});
