import { describe, expect, it } from 'vitest';
import { D, fmt } from '../../src/model/decimal.js';
import type { PlaceResult } from '../../src/sim/sim-types.js';
import { bal, levels, M, makeExchange, place } from './exchange-fixture.js';

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
    expect(ex.openOrders('a').map((o) => [o.orderId, o.rpi])).toEqual([
      [3, true],
      [hidden.orderId, true],
    ]);
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
    expect(
      ex
        .deals('a')
        .map((d) => d.role)
        .sort(),
    ).toEqual(['maker', 'taker']);
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
    expect(o3).toMatchObject({ kind: 'limit', stp: 'no', postOnly: false, ioc: false, rpi: false, status: 'NEW' });
  });

  it('a client order id cannot be reused by the same account, even after the order finished', () => {
    const { ex } = makeExchange();
    const o = place(ex, 'a', 'buy', '0.01', '1000', { clientOrderId: 'abc' });
    ex.cancel('a', M, { orderId: o.orderId });
    expect(ex.isClientOrderIdUsed('a', 'abc')).toBe(true);
    expect(ex.isClientOrderIdUsed('b', 'abc')).toBe(false);
    expect(ex.placeLimit('a', { market: M, side: 'buy', amount: D('0.01'), price: D('1000'), clientOrderId: 'abc' })).toMatchObject({
      ok: false,
      reason: 'client-order-id',
    });
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
