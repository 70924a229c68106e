import { interval, map, take, tap } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { defineStrategy, midPrice, ordersToTargets, placeLimit, z } from '../../src/strategy/index.js';
import { bookFixture, createPaperOrders, createTestContext, marketFixture, ownOrderFixture } from '../../src/strategy/testing.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('createTestContext', () => {
  it('gives a context on virtual time: the clock reads the scheduler, timers run on it', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const ctx = createTestContext({ scheduler, market: marketFixture(), params: {} });
      const ticks = interval(1000, ctx.scheduler).pipe(
        take(3),
        map(() => ctx.clock.now()),
      );
      expectObservable(ticks).toBe('1s a 999ms b 999ms (c|)', { a: 1000, b: 2000, c: 3000 });
    });
  });

  it('defaults: orders$ emits no orders once and stays open; the other streams stay silent; logger is silent', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const ctx = createTestContext({ scheduler, market: marketFixture(), params: { a: 1 } });
      expectObservable(ctx.orders$).toBe('a', { a: [] });
      expectObservable(ctx.book$).toBe('');
      expectObservable(ctx.fills$).toBe('');
      expect(ctx.log.isLevelEnabled('error')).toBe(false);
      expect(ctx.params).toEqual({ a: 1 });
      expect(ctx.id).toBe('test');
    });
  });

  it('drives a strategy with marble books', () => {
    const strategy = defineStrategy({
      name: 'buy-below-mid',
      params: z.object({ offset: z.string().default('1') }),
      create: (ctx) => ctx.book$.pipe(map((book) => placeLimit({ side: 'buy', price: midPrice(book)!.minus(D(ctx.params.offset)), amount: D('0.1') }))),
    });
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const ctx = createTestContext({
        scheduler,
        market: marketFixture(),
        params: strategy.params.parse({}),
        book$: cold('a 9ms b', { a: bookFixture({ bid: 100, ask: 102 }), b: bookFixture({ bid: 104, ask: 106 }) }),
      });
      const prices = strategy.create(ctx).pipe(map((i) => (i.kind === 'place-limit' ? i.price.toFixed() : i.kind)));
      expectObservable(prices).toBe('a 9ms b', { a: '100', b: '104' });
    });
  });
});

describe('fixtures', () => {
  it('marketFixture is BTC_USDT-like and takes overrides', () => {
    const m = marketFixture({ moneyPrec: 4 });
    expect(m.name).toBe('BTC_USDT');
    expect(m.moneyPrec).toBe(4);
    expect(m.minTotal.toFixed()).toBe('5');
  });

  it('bookFixture builds levels away from the touch', () => {
    const book = bookFixture({ bid: '100', ask: '101', depth: 3, tick: '0.5' });
    expect(book.bids.map((l) => l.price.toFixed())).toEqual(['100', '99.5', '99']);
    expect(book.asks.map((l) => l.price.toFixed())).toEqual(['101', '101.5', '102']);
    expect(bookFixture({ ask: 5 }).bids).toEqual([]);
  });
});

describe('createPaperOrders', () => {
  it('applies places, cancels and fills at once, so ordersToTargets sees its own orders', () => {
    const paper = createPaperOrders();
    const want = [{ side: 'buy' as const, price: D(99), amount: D(1), tag: 'b' }];
    ordersToTargets(want, paper.orders).forEach((i) => paper.apply(i));
    expect(paper.orders).toHaveLength(1);
    expect(ordersToTargets(want, paper.orders)).toEqual([]);
    paper.fill('paper-1', '0.4');
    expect(paper.orders[0]!.left.toFixed()).toBe('0.6');
    expect(paper.orders[0]!.state).toBe('partially-filled');
    paper.fill('paper-1');
    expect(paper.orders).toEqual([]);
  });

  it('closes the loop in a marble test: a strategy reacting to orders$ does not place twice', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const paper = createPaperOrders();
      const ctx = createTestContext({
        scheduler,
        market: marketFixture(),
        params: {},
        book$: cold('a 9ms a'),
        orders$: paper.orders$,
      });
      const live = [ownOrderFixture({ clientOrderId: 'x', side: 'sell', price: '1', amount: '1', state: 'filled' })];
      const intents$ = ctx.book$.pipe(
        map(() => ordersToTargets([{ side: 'buy', price: D(99), amount: D(1) }], [...paper.orders, ...live])),
        tap((intents) => intents.forEach((i) => paper.apply(i))),
        map((intents) => intents.length),
      );
      expectObservable(intents$).toBe('a 9ms b', { a: 1, b: 0 });
    });
  });
});
