import { describe, expect, it } from 'vitest';
import type { OrderBook } from '../../src/model/book.js';
import { D, fmt } from '../../src/model/decimal.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { createLiveFlow } from '../../src/sim/live-flow.js';
import { paperSimConfig } from '../../src/sim/paper-sim-config.js';
import type { SimTrade } from '../../src/sim/sim-types.js';
import { HandFeed, btcUsdt, levelsBook } from '../helpers/live-feed.js';

const M = 'BTC_USDT';
const market = btcUsdt({ stockPrec: 6, minAmount: D('0.0001'), minTotal: D('1') });

const book = (bids: Array<[string, string]>, asks: Array<[string, string]>): OrderBook => levelsBook(M, bids, asks);

function setup(staleAfterMs = 3000) {
  const clock = { now: 1_700_000_000_000 };
  const ex = new SimExchange(paperSimConfig({ markets: [market], balances: { BTC: D('1'), USDT: D('100000') }, account: 'paper' }), () => clock.now);
  const feed = new HandFeed();
  const changes: Array<[boolean, number]> = [];
  const flow = createLiveFlow({ feed, markets: [M], staleAfterMs, onStale: (_m, stale, at) => changes.push([stale, at - 1_700_000_000_000]) });
  const step = (ms: number): void => {
    clock.now += ms;
    flow.step(ex, clock.now);
  };
  const levels = () => {
    const b = ex.book(M);
    return { t: b.timestamp, bids: b.bids.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`), asks: b.asks.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`) };
  };
  const place = (side: 'buy' | 'sell', amount: string, price: string) => {
    const r = ex.placeLimit('paper', { market: M, side, amount: D(amount), price: D(price) });
    if (!r.ok) throw new Error(r.message);
    return r.order;
  };
  return { ex, feed, flow, step, changes, levels, place, clock };
}

describe('live flow: the upstream public book and trades as the sim market', () => {
  it('mirrors the upstream book; a resting order fills when the book trades through it, not when its level shrinks', () => {
    const { ex, feed, step, levels, place } = setup();
    feed.book = book(
      [
        ['100', '2'],
        ['99', '1'],
      ],
      [
        ['101', '1'],
        ['102', '3'],
      ],
    );
    step(250);
    expect(levels()).toMatchObject({ bids: ['100x2', '99x1'], asks: ['101x1', '102x3'] });

    const bid = place('buy', '0.5', '100'); // behind the upstream's 2 at 100
    feed.book = book(
      [
        ['100', '0.5'],
        ['99', '1'],
      ],
      [
        ['101', '1'],
        ['102', '3'],
      ],
    ); // 100 shrinks: cancels behind us, no fill
    step(250);
    expect(ex.isOrderOpen('paper', bid.orderId)).toBe(true);
    expect(ex.deals('paper')).toHaveLength(0);

    feed.book = book(
      [['99', '1']],
      [
        ['100', '0.3'],
        ['101', '1'],
      ],
    ); // sellers at our price: a counterparty
    step(250);
    const deals = ex.deals('paper');
    expect(deals.map((d) => [d.side, d.role, fmt(d.price), fmt(d.amount)])).toEqual([['buy', 'maker', '100', '0.3']]);
    expect(levels().asks).toEqual(['101x1']);
  });

  it('prints the upstream trades on the tape (ids increasing, oldest first) and takes them as the last price for stops', () => {
    const { ex, feed, step } = setup();
    const seen: SimTrade[] = [];
    ex.onTrade((t) => seen.push(t));
    feed.book = book([['100', '1']], [['101', '1']]);
    const stop = ex.placeStopLimit('paper', { market: M, side: 'sell', amount: D('0.1'), price: D('95'), activationPrice: D('96') });
    expect(stop.ok).toBe(true);
    feed.trades = [
      { market: M, id: 7001, time: 1_700_000_000_100, price: D('100.5'), amount: D('0.2'), takerSide: 'buy', value: D('20.1') },
      { market: M, id: 7002, time: 1_700_000_000_200, price: D('95.5'), amount: D('0.1'), takerSide: 'sell', value: D('9.55') },
    ];
    step(250);
    const deals = ex.deals('paper');
    // the second print fired the stop: its sell at 95 met the mirrored bid at 100 as a taker
    expect(deals.map((d) => [d.side, d.role, fmt(d.price), fmt(d.amount)])).toEqual([['sell', 'taker', '100', '0.1']]);
    expect(seen.map((t) => [fmt(t.price), fmt(t.amount), t.takerSide, t.time])).toEqual([
      ['100.5', '0.2', 'buy', 1_700_000_000_100],
      ['95.5', '0.1', 'sell', 1_700_000_000_200],
      ['100', '0.1', 'sell', 1_700_000_000_250],
    ]);
    expect(seen.map((t) => t.id)).toEqual([...seen.map((t) => t.id)].sort((a, b) => a - b));
    expect(new Set(seen.map((t) => t.id)).size).toBe(3);
    expect(ex.lastPrice(M)?.toFixed()).toBe('100');
  });

  it('a market without an upstream book for staleAfterMs freezes its public book and fills nothing; the next book thaws it', () => {
    const { ex, feed, step, changes, levels, place, clock } = setup(3000);
    feed.book = book([['100', '2']], [['101', '1']]);
    step(250);
    const ask = place('sell', '0.1', '103');
    for (let i = 0; i < 11; i++) step(250); // 2.75 s without a book: still fresh
    expect(changes).toEqual([[false, 250]]);
    const before = levels();
    step(250); // 3 s: stale
    expect(changes).toEqual([
      [false, 250],
      [true, 3250],
    ]);
    const frozen = levels();
    expect(frozen).toEqual(before);
    expect(frozen.asks).toEqual(['101x1', '103x0.1']);

    // time passes, the book underneath changes: the public view stands still, timestamp and all
    clock.now += 5000;
    ex.cancel('paper', M, { orderId: ask.orderId });
    const buy = place('buy', '0.5', '101.5'); // through the frozen ask: nothing is there to fill it
    step(250);
    expect(levels()).toEqual(frozen);
    expect(ex.deals('paper')).toHaveLength(0);
    expect(ex.isOrderOpen('paper', buy.orderId)).toBe(true);

    feed.book = book([['100', '2']], [['101.2', '1']]);
    step(250);
    expect(changes).toEqual([
      [false, 250],
      [true, 3250],
      [false, 8750],
    ]);
    // fresh again: the new book's ask at 101.2 is through our bid at 101.5 and fills it, as maker
    expect(ex.deals('paper').map((d) => [d.side, d.role, fmt(d.price), fmt(d.amount)])).toEqual([['buy', 'maker', '101.5', '0.5']]);
    expect(levels().t).toBeGreaterThan(frozen.t);
  });

  it('starts stale: an empty frozen book until the first upstream book', () => {
    const { feed, step, levels, flow, changes } = setup();
    step(250);
    const first = levels();
    expect(first).toMatchObject({ bids: [], asks: [] });
    step(2000);
    expect(levels()).toEqual(first);
    expect(flow.isStale(M)).toBe(true);
    feed.book = book([['100', '1']], [['101', '1']]);
    step(250);
    expect(flow.isStale(M)).toBe(false);
    expect(levels().bids).toEqual(['100x1']);
    expect(changes).toEqual([[false, 2500]]);
  });
});
