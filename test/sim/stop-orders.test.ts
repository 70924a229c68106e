import { describe, expect, it } from 'vitest';
import { D, fmt } from '../../src/model/decimal.js';
import type { Order } from '../../src/model/order.js';
import { bal, levels, M, makeExchange, place } from './exchange-fixture.js';

describe('stop-limit orders', () => {
  it('a buy stop activates when the last price rises to its activation price, then rests as a limit order', () => {
    const { ex } = makeExchange();
    const trade = (price: string) => {
      place(ex, 'b', 'sell', '0.1', price);
      place(ex, 'c', 'buy', '0.1', price);
    };
    trade('30000');
    const r = ex.placeStopLimit('a', { market: M, side: 'buy', amount: D('0.5'), price: D('30100'), activationPrice: D('30050') });
    expect(r).toMatchObject({ ok: true, order: { kind: 'stop-limit', status: 'NEW' } });
    const stop = (r as { order: Order }).order;
    expect(fmt(stop.activationPrice!)).toBe('30050');
    expect(levels(ex).bids).toEqual([]); // untriggered stops are not in the book
    expect(ex.openOrders('a').map((o) => o.orderId)).toEqual([stop.orderId]);
    expect(bal(ex, 'a', 'USDT')).toBe('9984919.9/15080.1'); // locked while waiting: 0.5 × 30100 × 1.002
    trade('30049.99');
    expect(levels(ex).bids).toEqual([]);
    trade('30050');
    expect(levels(ex).bids).toEqual(['30100x0.5']);
    expect(ex.findOrder('a', stop.orderId)).toMatchObject({ status: 'NEW', kind: 'stop-limit' });
    place(ex, 'b', 'sell', '0.2', '30090');
    expect(ex.deals('a')[0]).toMatchObject({ role: 'maker', side: 'buy', orderId: stop.orderId });
    expect(fmt(ex.deals('a')[0]!.price)).toBe('30100');
  });

  it('a sell stop activates when the last price falls to its activation price and trades as a taker', () => {
    const { ex } = makeExchange();
    place(ex, 'b', 'buy', '1', '29000');
    const r = ex.placeStopLimit('a', { market: M, side: 'sell', amount: D('0.5'), price: D('28900'), activationPrice: D('29500') });
    expect(r.ok).toBe(true);
    expect(bal(ex, 'a', 'BTC')).toBe('99.5/0.5');
    place(ex, 'c', 'sell', '0.1', '29600');
    place(ex, 'b', 'buy', '0.1', '29600'); // last 29600 > 29500
    expect(ex.deals('a')).toEqual([]);
    place(ex, 'c', 'sell', '0.1', '29000'); // trades at 29000 (b's bid): last 29000 <= 29500 → fires
    const deals = ex.deals('a');
    expect(deals).toHaveLength(1);
    expect(deals[0]).toMatchObject({ role: 'taker', side: 'sell' });
    expect(fmt(deals[0]!.price)).toBe('29000');
    expect(fmt(deals[0]!.amount)).toBe('0.5');
  });

  it('fires at once when the last price already satisfies it; cancelling a waiting stop releases its funds', () => {
    const { ex } = makeExchange();
    place(ex, 'b', 'sell', '1', '30000');
    place(ex, 'c', 'buy', '0.1', '30000');
    const now = ex.placeStopLimit('a', { market: M, side: 'buy', amount: D('0.2'), price: D('30000'), activationPrice: D('29000') });
    expect(now).toMatchObject({ ok: true, order: { status: 'FILLED' } });
    const wait = ex.placeStopLimit('a', { market: M, side: 'sell', amount: D('1'), price: D('20000'), activationPrice: D('20000') });
    expect(bal(ex, 'a', 'BTC')).toBe('99.2/1');
    const c = ex.cancel('a', M, { orderId: (wait as { order: Order }).order.orderId })!;
    expect(c.status).toBe('CANCELED');
    expect(bal(ex, 'a', 'BTC')).toBe('100.2/0');
  });

  it('rejects a stop the balance cannot cover', () => {
    const { ex } = makeExchange();
    const r = ex.placeStopLimit('a', { market: M, side: 'sell', amount: D('101'), price: D('1'), activationPrice: D('1') });
    expect(r).toMatchObject({ ok: false, reason: 'balance' });
  });
});

describe('kill switch', () => {
  it("cancels the account's orders in that market when the timer expires, unless cleared or renewed", () => {
    const { ex, clock } = makeExchange();
    const o = place(ex, 'a', 'buy', '0.01', '1000');
    const other = place(ex, 'b', 'buy', '0.01', '1000');
    expect(ex.killSwitch('a', M, 10)).toEqual({ market: M, startTime: 1_700_000_000, cancellationTime: 1_700_000_010, types: ['spot', 'margin', 'futures'] });
    clock.now += 9_000;
    ex.tick(clock.now);
    expect(ex.findOrder('a', o.orderId)!.status).toBe('NEW');
    ex.killSwitch('a', M, 10); // renewed
    clock.now += 9_000;
    ex.tick(clock.now);
    expect(ex.findOrder('a', o.orderId)!.status).toBe('NEW');
    clock.now += 1_000;
    ex.tick(clock.now);
    expect(ex.findOrder('a', o.orderId)!.status).toBe('CANCELED');
    expect(ex.findOrder('b', other.orderId)!.status).toBe('NEW');
    const o2 = place(ex, 'a', 'buy', '0.01', '1000');
    ex.killSwitch('a', M, 5);
    expect(ex.killSwitch('a', M, null)).toBeUndefined();
    clock.now += 60_000;
    ex.tick(clock.now);
    expect(ex.findOrder('a', o2.orderId)!.status).toBe('NEW');
  });
});
