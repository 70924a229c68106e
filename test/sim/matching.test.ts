import { describe, expect, it } from 'vitest';
import { D, fmt } from '../../src/model/decimal.js';
import type { Order } from '../../src/model/order.js';
import type { SimExchange } from '../../src/sim/exchange.js';
import type { LimitOrderInput, PlaceResult } from '../../src/sim/sim-types.js';
import { makeExchange } from './exchange-fixture.js';

const M = 'BTC_USDT';

function place(ex: SimExchange, account: string, side: 'buy' | 'sell', amount: string, price: string, extra: Partial<LimitOrderInput> = {}): Order {
  const r = ex.placeLimit(account, { market: M, side, amount: D(amount), price: D(price), ...extra });
  if (!r.ok) throw new Error(`placement rejected: ${r.reason} ${r.message}`);
  return r.order;
}

function bal(ex: SimExchange, account: string, asset: string): string {
  const b = ex.tradeBalances(account)[asset]!;
  return `${fmt(b.available)}/${fmt(b.freeze)}`;
}

function levels(ex: SimExchange) {
  const b = ex.book(M);
  return { asks: b.asks.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`), bids: b.bids.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`) };
}

describe('price-time priority', () => {
  it('fills the best price first, then the oldest order at a price, at the maker price', () => {
    const { ex } = makeExchange();
    const a1 = place(ex, 'a', 'sell', '1', '30001');
    const b1 = place(ex, 'b', 'sell', '1', '30000');
    const c1 = place(ex, 'c', 'sell', '1', '30000');
    const t = place(ex, 'a', 'buy', '1.5', '30005');
    expect(t.status).toBe('FILLED');
    expect(fmt(t.dealMoney)).toBe('45000'); // 1 @ 30000 (b) + 0.5 @ 30000 (c): improvement over the 30005 limit
    expect(ex.findOrder('b', b1.orderId)!.status).toBe('FILLED');
    expect(fmt(ex.findOrder('c', c1.orderId)!.left)).toBe('0.5');
    expect(ex.findOrder('a', a1.orderId)!.status).toBe('NEW');
    expect(levels(ex).asks).toEqual(['30000x0.5', '30001x1']);
    expect(fmt(ex.lastPrice(M)!)).toBe('30000');
  });

  it('rests the remainder of a taker at its own limit as a partially filled order', () => {
    const { ex } = makeExchange();
    place(ex, 'b', 'sell', '0.4', '30000');
    const t = place(ex, 'a', 'buy', '1', '30000');
    expect(t.status).toBe('PARTIALLY_FILLED');
    expect(fmt(t.left)).toBe('0.6');
    expect(levels(ex)).toEqual({ asks: [], bids: ['30000x0.6'] });
    expect(ex.openOrders('a').map((o) => o.orderId)).toEqual([t.orderId]);
  });

  it('never trades when the prices do not cross', () => {
    const { ex } = makeExchange();
    place(ex, 'b', 'sell', '1', '30000.01');
    const t = place(ex, 'a', 'buy', '1', '30000');
    expect(t.status).toBe('NEW');
    expect(ex.deals('a')).toEqual([]);
  });
});

describe('fees and funds', () => {
  it('charges maker and taker rates in the money asset: buyer pays deal + fee, seller receives deal − fee', () => {
    const { ex } = makeExchange({ makerFee: '0.1', takerFee: '0.2' });
    place(ex, 'b', 'sell', '2', '30000'); // maker
    expect(bal(ex, 'b', 'BTC')).toBe('98/2');
    const t = place(ex, 'a', 'buy', '1', '30000'); // taker
    // deal 30000; taker (buyer) fee 0.2 % = 60; maker (seller) fee 0.1 % = 30.
    expect(fmt(t.dealFee)).toBe('60');
    expect(bal(ex, 'a', 'USDT')).toBe('9969940/0');
    expect(bal(ex, 'a', 'BTC')).toBe('101/0');
    expect(bal(ex, 'b', 'USDT')).toBe('10029970/0');
    expect(bal(ex, 'b', 'BTC')).toBe('98/1');
    expect(fmt(ex.feesCollected('USDT'))).toBe('90');
    const [bd] = ex.deals('b');
    expect(bd).toMatchObject({ role: 'maker', side: 'sell', orderId: 1, market: M });
    expect(fmt(bd!.fee)).toBe('30');
    expect(fmt(bd!.deal)).toBe('30000');
    const [ad] = ex.deals('a');
    expect(ad).toMatchObject({ role: 'taker', side: 'buy', orderId: t.orderId });
    expect(ad!.id).not.toBe(bd!.id);
  });

  it('a resting buy locks amount × price plus fee headroom and spends exactly deal + maker fee', () => {
    const { ex } = makeExchange({ makerFee: '0.1', takerFee: '0.2' });
    const bid = place(ex, 'a', 'buy', '1', '30000');
    expect(bal(ex, 'a', 'USDT')).toBe('9969940/30060'); // headroom at the higher (taker) rate
    place(ex, 'b', 'sell', '1', '29000');
    expect(ex.findOrder('a', bid.orderId)!.status).toBe('FILLED');
    expect(bal(ex, 'a', 'USDT')).toBe('9969970/0'); // 30000 + 30 maker fee
    expect(bal(ex, 'b', 'USDT')).toBe('10029940/0'); // 30000 − 60 taker fee
  });

  it('post-only and rpi buys reserve only the maker fee', () => {
    const { ex } = makeExchange({ makerFee: '0.1', takerFee: '0.2' });
    place(ex, 'a', 'buy', '1', '30000', { postOnly: true });
    expect(bal(ex, 'a', 'USDT')).toBe('9969970/30030');
  });

  it('rejects an order the trade balance cannot cover, freezing nothing', () => {
    const { ex } = makeExchange();
    const r = ex.placeLimit('a', { market: M, side: 'sell', amount: D('100.000001'), price: D('1') });
    expect(r).toMatchObject({ ok: false, reason: 'balance' });
    const buy = ex.placeLimit('a', { market: M, side: 'buy', amount: D('400'), price: D('30000') });
    expect(buy).toMatchObject({ ok: false, reason: 'balance' });
    expect(bal(ex, 'a', 'BTC')).toBe('100/0');
    expect(bal(ex, 'a', 'USDT')).toBe('10000000/0');
    expect(ex.openOrders('a')).toEqual([]);
  });

  it('cancel returns the cancelled record and unfreezes what was left', () => {
    const { ex } = makeExchange();
    const o = place(ex, 'a', 'sell', '2', '30000', { clientOrderId: 'q-1' });
    place(ex, 'b', 'buy', '0.5', '30000');
    const c = ex.cancel('a', M, { clientOrderId: 'q-1' })!;
    expect(c).toMatchObject({ orderId: o.orderId, status: 'CANCELED', clientOrderId: 'q-1' });
    expect(fmt(c.left)).toBe('1.5');
    expect(fmt(c.dealStock)).toBe('0.5');
    expect(bal(ex, 'a', 'BTC')).toBe('99.5/0');
    expect(ex.cancel('a', M, { orderId: o.orderId })).toBeUndefined();
    expect(ex.cancel('b', M, { orderId: 999 })).toBeUndefined();
    expect(ex.cancel('a', 'ETH_USDT', { orderId: o.orderId })).toBeUndefined();
    expect(ex.book(M).asks).toEqual([]);
  });
});

describe('flags', () => {
  it('postOnly: an order that would take is rejected, not adjusted; one that does not rests', () => {
    const { ex } = makeExchange();
    place(ex, 'b', 'sell', '1', '30000');
    const r: PlaceResult = ex.placeLimit('a', { market: M, side: 'buy', amount: D('1'), price: D('30000'), postOnly: true });
    expect(r).toMatchObject({ ok: false, reason: 'post-only' });
    expect(bal(ex, 'a', 'USDT')).toBe('10000000/0');
    const ok = place(ex, 'a', 'buy', '1', '29999.99', { postOnly: true });
    expect(ok).toMatchObject({ status: 'NEW', postOnly: true });
  });

  it('ioc: fills what it can and cancels the rest; nothing to fill → cancelled at once', () => {
    const { ex } = makeExchange();
    place(ex, 'b', 'sell', '0.3', '30000');
    const t = place(ex, 'a', 'buy', '1', '30010', { ioc: true });
    expect(t).toMatchObject({ status: 'CANCELED', ioc: true });
    expect(fmt(t.dealStock)).toBe('0.3');
    expect(fmt(t.left)).toBe('0.7');
    const none = place(ex, 'a', 'sell', '1', '31000', { ioc: true });
    expect(none.status).toBe('CANCELED');
    expect(ex.openOrders('a')).toEqual([]);
    expect(levels(ex)).toEqual({ asks: [], bids: [] });
    expect(ex.tradeBalances('a').USDT!.freeze.isZero()).toBe(true);
    expect(ex.tradeBalances('a').BTC!.freeze.isZero()).toBe(true);
  });

  it('rpi: behaves as post-only, is hidden from the public book, visible in open orders and fillable', () => {
    const { ex } = makeExchange();
    place(ex, 'b', 'sell', '1', '30000');
    expect(ex.placeLimit('a', { market: M, side: 'buy', amount: D('1'), price: D('30000'), rpi: true })).toMatchObject({ ok: false, reason: 'post-only' });
    const hidden = place(ex, 'a', 'sell', '1', '30001', { rpi: true });
    place(ex, 'a', 'buy', '1', '29990', { rpi: true });
    expect(levels(ex)).toEqual({ asks: ['30000x1'], bids: [] });
    expect(ex.openOrders('a').map((o) => [o.orderId, o.rpi])).toEqual([[3, true], [hidden.orderId, true]]);
    expect(fmt(ex.topOfBook(M).bid!)).toBe('29990');
    const t = place(ex, 'c', 'buy', '2', '30001');
    expect(t.status).toBe('FILLED');
    expect(ex.findOrder('a', hidden.orderId)!.status).toBe('FILLED');
  });
});

describe('self-trade prevention (the taker decides)', () => {
  const setup = () => {
    const { ex } = makeExchange();
    const own = place(ex, 'a', 'sell', '1', '30000');
    const other = place(ex, 'b', 'sell', '1', '30001');
    return { ex, own, other };
  };

  it('no: trades with itself', () => {
    const { ex, own } = setup();
    const t = place(ex, 'a', 'buy', '1', '30000', { stp: 'no' });
    expect(t.status).toBe('FILLED');
    expect(ex.findOrder('a', own.orderId)!.status).toBe('FILLED');
    expect(ex.deals('a').map((d) => d.role).sort()).toEqual(['maker', 'taker']);
  });

  it.each([['cancel_new'], ['cn']] as const)('%s: cancels the incoming order, the resting one stays', (stp) => {
    const { ex, own } = setup();
    const t = place(ex, 'a', 'buy', '2', '30001', { stp });
    expect(t).toMatchObject({ status: 'CANCELED', stp: 'cancel_new' });
    expect(fmt(t.dealStock)).toBe('0');
    expect(ex.findOrder('a', own.orderId)!.status).toBe('NEW');
    expect(ex.tradeBalances('a').USDT!.freeze.isZero()).toBe(true);
  });

  it.each([['cancel_old'], ['co']] as const)('%s: cancels the resting order and keeps matching others', (stp) => {
    const { ex, own, other } = setup();
    const t = place(ex, 'a', 'buy', '2', '30001', { stp });
    expect(ex.findOrder('a', own.orderId)!.status).toBe('CANCELED');
    expect(ex.findOrder('b', other.orderId)!.status).toBe('FILLED');
    expect(t).toMatchObject({ status: 'PARTIALLY_FILLED', stp: 'cancel_old' });
    expect(levels(ex)).toEqual({ asks: [], bids: ['30001x1'] });
  });

  it.each([['cancel_both'], ['cb']] as const)('%s: cancels both', (stp) => {
    const { ex, own, other } = setup();
    const t = place(ex, 'a', 'buy', '2', '30001', { stp });
    expect(t.status).toBe('CANCELED');
    expect(ex.findOrder('a', own.orderId)!.status).toBe('CANCELED');
    expect(ex.findOrder('b', other.orderId)!.status).toBe('NEW');
    expect(bal(ex, 'a', 'BTC')).toBe('100/0');
  });

  it('only applies to the same account', () => {
    const { ex, own } = setup();
    place(ex, 'c', 'buy', '1', '30000', { stp: 'cancel_both' });
    expect(ex.findOrder('a', own.orderId)!.status).toBe('FILLED');
  });
});

describe('stop-limit orders', () => {
  it('a buy stop activates when the last price rises to its activation price, then rests as a limit order', () => {
    const { ex } = makeExchange();
    const trade = (price: string) => {
      place(ex, 'b', 'sell', '0.1', price);
      place(ex, 'c', 'buy', '0.1', price);
    };
    trade('30000');
    const r = ex.placeStopLimit('a', { market: M, side: 'buy', amount: D('0.5'), price: D('30100'), activationPrice: D('30050') });
    expect(r).toMatchObject({ ok: true, order: { type: 'stop limit', status: 'NEW' } });
    const stop = (r as { order: Order }).order;
    expect(fmt(stop.activationPrice!)).toBe('30050');
    expect(levels(ex).bids).toEqual([]); // untriggered stops are not in the book
    expect(ex.openOrders('a').map((o) => o.orderId)).toEqual([stop.orderId]);
    expect(bal(ex, 'a', 'USDT')).toBe('9984919.9/15080.1'); // locked while waiting: 0.5 × 30100 × 1.002
    trade('30049.99');
    expect(levels(ex).bids).toEqual([]);
    trade('30050');
    expect(levels(ex).bids).toEqual(['30100x0.5']);
    expect(ex.findOrder('a', stop.orderId)).toMatchObject({ status: 'NEW', type: 'stop limit' });
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

describe('order records', () => {
  it('ids increase, timestamps are seconds with a microsecond fraction and strictly increase', () => {
    const { ex, clock } = makeExchange();
    const o1 = place(ex, 'a', 'buy', '0.01', '1000');
    const o2 = place(ex, 'b', 'buy', '0.01', '1000');
    clock.now += 1500;
    const o3 = place(ex, 'a', 'buy', '0.01', '1000', { clientOrderId: 'x-1' });
    expect([o1.orderId < o2.orderId, o2.orderId < o3.orderId]).toEqual([true, true]);
    expect(o1.timestamp).toBe(1_700_000_000);
    expect(o2.timestamp).toBeCloseTo(1_700_000_000.000001, 6);
    expect(o3.timestamp).toBeCloseTo(1_700_000_001.5, 6);
    expect(o1.clientOrderId).toBe('');
    expect(o3).toMatchObject({ type: 'limit', stp: 'no', postOnly: false, ioc: false, rpi: false, status: 'NEW' });
  });

  it('a client order id cannot be reused by the same account, even after the order finished', () => {
    const { ex } = makeExchange();
    const o = place(ex, 'a', 'buy', '0.01', '1000', { clientOrderId: 'abc' });
    ex.cancel('a', M, { orderId: o.orderId });
    expect(ex.isClientOrderIdUsed('a', 'abc')).toBe(true);
    expect(ex.isClientOrderIdUsed('b', 'abc')).toBe(false);
    expect(ex.placeLimit('a', { market: M, side: 'buy', amount: D('0.01'), price: D('1000'), clientOrderId: 'abc' })).toMatchObject({ ok: false, reason: 'client-order-id' });
    expect(place(ex, 'b', 'buy', '0.01', '1000', { clientOrderId: 'abc' }).clientOrderId).toBe('abc');
  });

  it('open orders and deals are newest first and honour market, id, client id, limit and offset', () => {
    const { ex } = makeExchange();
    const ids = [1, 2, 3, 4].map((i) => place(ex, 'a', 'buy', '0.01', String(1000 + i), { clientOrderId: `c${i}` }).orderId);
    expect(ex.openOrders('a').map((o) => o.orderId)).toEqual([...ids].reverse());
    expect(ex.openOrders('a', { limit: 2, offset: 1 }).map((o) => o.orderId)).toEqual([ids[2], ids[1]]);
    expect(ex.openOrders('a', { clientOrderId: 'c2' }).map((o) => o.orderId)).toEqual([ids[1]]);
    expect(ex.openOrders('a', { orderId: ids[3] }).map((o) => o.orderId)).toEqual([ids[3]]);
    expect(ex.openOrders('a', { market: 'ETH_USDT' })).toEqual([]);
    place(ex, 'b', 'sell', '0.04', '1000');
    const deals = ex.deals('a');
    // The sell swept the best bid (1004) first, so the newest deal is the one at 1001.
    expect(deals.map((d) => d.orderId)).toEqual(ids);
    expect(deals.map((d) => fmt(d.price))).toEqual(['1001', '1002', '1003', '1004']);
    expect(ex.deals('a', { clientOrderId: 'c3' }).map((d) => d.orderId)).toEqual([ids[2]]);
    expect(ex.deals('a', { limit: 1, offset: 3 }).map((d) => d.orderId)).toEqual([ids[3]]);
  });
});

describe('public book', () => {
  it('aggregates levels on a coarser grid (asks up, bids down) and honours the limit', () => {
    const { ex } = makeExchange();
    for (const p of ['30000.01', '30000.04', '30000.1', '30001.55']) place(ex, 'a', 'sell', '0.1', p);
    for (const p of ['29999.99', '29999.91', '29999.89']) place(ex, 'b', 'buy', '0.1', p);
    expect(levels(ex).asks).toEqual(['30000.01x0.1', '30000.04x0.1', '30000.1x0.1', '30001.55x0.1']);
    const l1 = ex.book(M, { level: 1 });
    expect(l1.asks.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`)).toEqual(['30000.1x0.3', '30001.6x0.1']);
    expect(l1.bids.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`)).toEqual(['29999.9x0.2', '29999.8x0.1']);
    const l3 = ex.book(M, { level: 3, limit: 1 });
    // Level 3 = a grid of 10^3 price steps (10 USDT).
    expect(l3.asks.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`)).toEqual(['30010x0.4']);
    expect(l3.bids.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`)).toEqual(['29990x0.3']);
    expect(ex.book(M, { limit: 2 }).asks).toHaveLength(2);
    expect(ex.book(M).timestamp).toBe(1_700_000_000);
  });
});

describe('kill switch', () => {
  it('cancels the account\'s orders in that market when the timer expires, unless cleared or renewed', () => {
    const { ex, clock } = makeExchange();
    const o = place(ex, 'a', 'buy', '0.01', '1000');
    const other = place(ex, 'b', 'buy', '0.01', '1000');
    expect(ex.killSwitch('a', M, 10)).toEqual({ market: M, startTime: 1_700_000_000, cancellationTime: 1_700_000_010 });
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
