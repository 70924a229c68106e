import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { bookSource } from '../../src/streams/book-source.js';
import { dealsSource } from '../../src/streams/deals-source.js';
import { fetchAllOpenOrders } from '../../src/streams/fetch-open-orders.js';
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
    expect(a.values.map(([t, v]) => [t, v.timestamp])).toEqual([
      [0, 1],
      [500, 1],
      [1000, 2],
    ]);
    expect(b.values).toEqual(a.values);
    a.stop();
    b.stop();
    late.stop();
    await advanceTo(scheduler, 5000);
    expect(api.calls['orderBook']).toBe(3);
  });

  it('shared: false is the bare poll (the runtime shares the checked books itself): each subscriber polls, nothing replayed', async () => {
    const scheduler = newScheduler();
    const api = fakeApi();
    const book$ = bookSource(api, 'BTC_USDT', { limit: 20, periodMs: 500, shared: false }, scheduler);
    const a = record(scheduler, book$);
    api.bookTimestamp = 1;
    await advanceTo(scheduler, 600);
    const late = record(scheduler, book$);
    await advanceTo(scheduler, 700);
    expect(late.values.map(([t, v]) => [t, v.timestamp])).toEqual([[600, 1]]);
    expect(api.calls['orderBook']).toBe(3); // a at 0 and 500, late at 600 (its own first poll)
    expect(a.values.map(([t, v]) => [t, v.timestamp])).toEqual([
      [0, 1],
      [500, 1],
    ]);
    a.stop();
    late.stop();
  });
});

describe('fetchAllOpenOrders', () => {
  it('pages through all open orders of the market', async () => {
    const api = fakeApi();
    api.openOrders_ = [...Array.from({ length: 250 }, (_, i) => makeOrder(i + 1)), makeOrder(999, 'ETH_USDT')];
    const ids = (await fetchAllOpenOrders(api, 'BTC_USDT')).map((o) => o.orderId);
    expect(new Set(ids).size).toBe(250);
    expect(ids).not.toContain(999);
    expect(api.queries['openOrders']).toEqual([
      { market: 'BTC_USDT', limit: 100, offset: 0 },
      { market: 'BTC_USDT', limit: 100, offset: 100 },
      { market: 'BTC_USDT', limit: 100, offset: 200 },
    ]);
  });
});

describe('dealsSource', () => {
  it('emits each new deal once, oldest first, paging back through a burst between polls', async () => {
    const scheduler = newScheduler();
    const api = fakeApi();
    api.deals_ = [makeDeal(2, 20), makeDeal(1, 10)];
    const r = record(scheduler, dealsSource(api, 'BTC_USDT', { periodMs: 1000 }, scheduler));
    await advanceTo(scheduler, 500);
    expect(r.values.map(([t, d]) => [t, d.id])).toEqual([
      [0, 1],
      [0, 2],
    ]);
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
