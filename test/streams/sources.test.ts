import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { balanceSource } from '../../src/streams/balance-source.js';
import { bookSource } from '../../src/streams/book-source.js';
import { dealsSource } from '../../src/streams/deals-source.js';
import { createMarketStreams, type PollFailure } from '../../src/streams/market-streams.js';
import { openOrdersSource } from '../../src/streams/open-orders-source.js';
import { fakeApi, makeDeal, makeOrder } from './fake-api.js';
import { advanceTo, record } from './virtual-time.js';

const newScheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));

describe('bookSource', () => {
  it('polls with limit and level, multicasts to many subscribers, replays the latest to late ones, stops with the last', async () => {
    const scheduler = newScheduler();
    const api = fakeApi();
    const book$ = bookSource(api, 'BTC_USDT', { limit: 20, level: 1, periodMs: 500 }, scheduler);
    const a = record(scheduler, book$);
    const b = record(scheduler, book$);
    api.bookTimestamp = 1;
    await advanceTo(scheduler, 600);
    api.bookTimestamp = 2;
    const late = record(scheduler, book$);
    expect(late.values.map(([t, v]) => [t, v.timestamp])).toEqual([[600, 1]]);
    await advanceTo(scheduler, 1200);
    expect(api.calls['orderBook']).toBe(3); // at 0, 500, 1000: one poll for three subscribers
    expect(api.queries['orderBook']![0]).toEqual({ limit: 20, level: 1 });
    expect(a.values.map(([t, v]) => [t, v.timestamp])).toEqual([[0, 1], [500, 1], [1000, 2]]);
    expect(b.values).toEqual(a.values);
    a.stop();
    b.stop();
    late.stop();
    await advanceTo(scheduler, 5000);
    expect(api.calls['orderBook']).toBe(3);
  });
});

describe('balanceSource', () => {
  it('emits the trade balance every period and keeps going through failures', async () => {
    const scheduler = newScheduler();
    const api = fakeApi();
    const errors: unknown[] = [];
    const r = record(scheduler, balanceSource(api, { periodMs: 1000, backoff: { initialMs: 200, maxMs: 200, factor: 1 }, onError: (e) => errors.push(e) }, scheduler));
    await advanceTo(scheduler, 1500);
    api.failing.set('tradeBalance', new Error('503'));
    await advanceTo(scheduler, 2100);
    api.failing.clear();
    api.balances_ = { BTC: { available: D(2), freeze: D(0) } };
    await advanceTo(scheduler, 2300);
    expect(errors).toHaveLength(1);
    expect(r.values.map(([t, b]) => [t, b['BTC']!.available.toFixed()])).toEqual([[0, '1'], [1000, '1'], [2200, '2']]);
    r.stop();
  });
});

describe('openOrdersSource', () => {
  it('pages through all open orders of the market', async () => {
    const scheduler = newScheduler();
    const api = fakeApi();
    api.openOrders_ = [...Array.from({ length: 250 }, (_, i) => makeOrder(i + 1)), makeOrder(999, 'ETH_USDT')];
    const r = record(scheduler, openOrdersSource(api, 'BTC_USDT', { periodMs: 1000 }, scheduler));
    await advanceTo(scheduler, 0);
    expect(r.values).toHaveLength(1);
    const ids = r.values[0]![1].map((o) => o.orderId);
    expect(new Set(ids).size).toBe(250);
    expect(ids).not.toContain(999);
    expect(api.queries['openOrders']).toEqual([
      { market: 'BTC_USDT', limit: 100, offset: 0 },
      { market: 'BTC_USDT', limit: 100, offset: 100 },
      { market: 'BTC_USDT', limit: 100, offset: 200 },
    ]);
    r.stop();
  });
});

describe('dealsSource', () => {
  it('emits each new deal once, oldest first, paging back through a burst between polls', async () => {
    const scheduler = newScheduler();
    const api = fakeApi();
    api.deals_ = [makeDeal(2, 20), makeDeal(1, 10)];
    const r = record(scheduler, dealsSource(api, 'BTC_USDT', { periodMs: 1000 }, scheduler));
    await advanceTo(scheduler, 500);
    expect(r.values.map(([t, d]) => [t, d.id])).toEqual([[0, 1], [0, 2]]);
    // 250 deals between two polls: more than two pages.
    const burst = Array.from({ length: 250 }, (_, i) => makeDeal(3 + i, 30 + i)).reverse();
    api.deals_ = [...burst, ...api.deals_];
    await advanceTo(scheduler, 1500);
    expect(r.values.map(([, d]) => d.id)).toEqual(Array.from({ length: 252 }, (_, i) => i + 1));
    await advanceTo(scheduler, 3500);
    expect(r.values).toHaveLength(252);
    r.stop();
  });

  it('skips deals known from the journal or older than `since`', async () => {
    const scheduler = newScheduler();
    const api = fakeApi();
    api.deals_ = [makeDeal(5, 50), makeDeal(4, 40), makeDeal(3, 30), makeDeal(2, 20), makeDeal(1, 10)];
    const r = record(scheduler, dealsSource(api, 'BTC_USDT', { periodMs: 1000, since: 15, knownIds: [4], pageSize: 2 }, scheduler));
    await advanceTo(scheduler, 0);
    // 4 is known but 3 and 2 (older, on the next pages) are not: paging goes on until deal 1, older than `since`.
    expect(r.values.map(([, d]) => d.id)).toEqual([2, 3, 5]);
    expect(api.calls['deals']).toBe(3);
    r.stop();
  });

  it('is shared: two subscribers, one poll, each deal once to each', async () => {
    const scheduler = newScheduler();
    const api = fakeApi();
    const deals$ = dealsSource(api, 'BTC_USDT', { periodMs: 1000 }, scheduler);
    const a = record(scheduler, deals$);
    const b = record(scheduler, deals$);
    api.deals_ = [makeDeal(1, 10)];
    await advanceTo(scheduler, 2500);
    expect(api.calls['deals']).toBe(3);
    expect(a.values.map(([, d]) => d.id)).toEqual([1]);
    expect(b.values.map(([, d]) => d.id)).toEqual([1]);
    a.stop();
    b.stop();
  });
});

describe('createMarketStreams', () => {
  it('returns one shared stream per market and reports every failed poll on errors$', async () => {
    const scheduler = newScheduler();
    const api = fakeApi();
    const streams = createMarketStreams({
      api,
      scheduler,
      intervals: { bookMs: 1000, balancesMs: 1000, openOrdersMs: 1000, dealsMs: 1000 },
      backoff: { initialMs: 100, maxMs: 100, factor: 1 },
    });
    expect(streams.book('BTC_USDT')).toBe(streams.book('BTC_USDT'));
    expect(streams.book('BTC_USDT')).not.toBe(streams.book('ETH_USDT'));
    expect(streams.deals('BTC_USDT')).toBe(streams.deals('BTC_USDT'));
    const failures: PollFailure[] = [];
    streams.errors$.subscribe((f) => failures.push(f));
    api.failing.set('orderBook', new Error('down'));
    const s1 = record(scheduler, streams.book('BTC_USDT'));
    const s2 = record(scheduler, streams.book('BTC_USDT'));
    await advanceTo(scheduler, 150);
    api.failing.clear();
    await advanceTo(scheduler, 250);
    expect(failures.map((f) => [f.source, f.market, f.attempt])).toEqual([['book', 'BTC_USDT', 1], ['book', 'BTC_USDT', 2]]);
    expect(s1.values.map(([t]) => t)).toEqual([200]);
    expect(s2.values).toEqual(s1.values);
    expect(api.calls['orderBook']).toBe(3);
    s1.stop();
    s2.stop();
  });
});
