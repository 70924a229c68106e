import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TestScheduler } from 'rxjs/testing';
import { D } from '../../src/model/decimal.js';
import { bookFixture, createTestContext, marketFixture, ownOrderFixture } from '../../src/strategy/testing.js';
import type { Intent, OwnOrder } from '../../src/strategy/index.js';
import grid from '../../strategies/grid/index.js';
import { gridLevels, gridTag, inferGap, levelOfTag } from '../../strategies/grid/grid-levels.js';
import { planGrid } from '../../strategies/grid/grid-plan.js';
import { PaperLoop } from './paper-loop.js';

const market = marketFixture();
const params = grid.params.parse({ lower: '99', upper: '101', levels: 5, amount: '0.1' });
const levels = gridLevels(market, D(99), D(101), 5); // 99, 99.5, 100, 100.5, 101

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const place = (side: 'buy' | 'sell', price: string, level: number, postOnly = false): Intent => ({
  kind: 'place-limit',
  side,
  price: D(price),
  amount: D('0.1'),
  postOnly,
  tag: gridTag(level),
});

describe('grid levels', () => {
  it('spreads N prices on the price step from lower to upper', () => {
    expect(levels.map((l) => l.price.toFixed())).toEqual(['99', '99.5', '100', '100.5', '101']);
    expect(gridLevels(market, D('100'), D('100.1'), 3).map((l) => l.price.toFixed())).toEqual(['100', '100.05', '100.1']);
  });

  it('refuses a grid whose levels share a price step', () => {
    expect(() => gridLevels(market, D('100'), D('100.01'), 3)).toThrow(/same price step/);
  });

  it('reads tags back', () => {
    expect(levelOfTag(gridTag(7))).toBe(7);
    expect(levelOfTag('bid-0')).toBeUndefined();
    expect(levelOfTag(undefined)).toBeUndefined();
  });

  it('finds the gap of a restarted grid between its highest buy and lowest sell, nearest the market', () => {
    const live = [
      ownOrderFixture({ clientOrderId: 'a', side: 'buy', price: '99', amount: '0.1', tag: gridTag(0) }),
      ownOrderFixture({ clientOrderId: 'b', side: 'sell', price: '101', amount: '0.1', tag: gridTag(4) }),
    ];
    expect(inferGap(levels, live, D('99.6'))).toBe(1);
    expect(inferGap(levels, live, D('100.4'))).toBe(3);
    expect(inferGap(levels, [], D('100.2'))).toBe(2);
    // an adopted order without its tag is recognised by its price
    const untagged = [ownOrderFixture({ clientOrderId: 'c', side: 'buy', price: '99.5', amount: '0.1' })];
    expect(inferGap(levels, untagged, D('100.6'))).toBe(3);
  });
});

describe('grid plan', () => {
  const base = { levels, live: [] as OwnOrder[], blocked: new Set<number>(), canceling: new Set<string>(), amount: D('0.1'), postOnly: false };

  it('puts buys below the gap and sells above it', () => {
    const intents = planGrid({ ...base, gap: 2, bestBid: D('99.9'), bestAsk: D('100.1') });
    expect(intents).toEqual([place('buy', '99', 0), place('buy', '99.5', 1), place('sell', '100.5', 3), place('sell', '101', 4)]);
  });

  it('holds back orders that would cross the book', () => {
    const intents = planGrid({ ...base, gap: 3, bestBid: D('99.9'), bestAsk: D('100') });
    // level 2 (100) is a buy by the gap but the ask is 100: not placed
    expect(intents).toEqual([place('buy', '99', 0), place('buy', '99.5', 1), place('sell', '101', 4)]);
  });

  it('cancels a wrong-side order and does not place at its level in the same breath', () => {
    const live = [ownOrderFixture({ clientOrderId: 'x', side: 'sell', price: '99.5', amount: '0.1', tag: gridTag(1) })];
    const intents = planGrid({ ...base, live, gap: 2, bestBid: D('99.9'), bestAsk: D('100.1') });
    expect(intents[0]).toEqual({ kind: 'cancel', clientOrderId: 'x' });
    expect(intents.filter((i) => i.kind === 'place-limit' && i.tag === gridTag(1))).toEqual([]);
  });

  it('never places at a level that holds a live order, and never twice at one level (property)', () => {
    const order = fc.record({
      level: fc.integer({ min: 0, max: 6 }),
      side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
      state: fc.constantFrom('pending', 'open', 'partially-filled', 'unknown' as const),
      cancelRequested: fc.boolean(),
      tagged: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(order, { maxLength: 10 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 40 }), (specs, gap, bidTicks) => {
        const live = specs.map((s, i) =>
          ownOrderFixture({
            clientOrderId: `o${i}`,
            side: s.side,
            price: s.level < 5 ? levels[s.level]!.price : D('200'),
            amount: '0.1',
            state: s.state,
            cancelRequested: s.cancelRequested,
            ...(s.tagged ? { tag: gridTag(s.level) } : {}),
          }),
        );
        const bid = D('99').plus(D('0.05').times(bidTicks));
        const intents = planGrid({ ...base, live, gap, bestBid: bid, bestAsk: bid.plus('0.05') });
        const placed = intents.flatMap((i) => (i.kind === 'place-limit' ? [levelOfTag(i.tag)!] : []));
        expect(new Set(placed).size).toBe(placed.length);
        const occupied = new Set(specs.filter((s) => s.level < 5).map((s) => s.level));
        for (const level of placed) expect(occupied.has(level)).toBe(false);
        const cancelled = intents.flatMap((i) => (i.kind === 'cancel' ? [i.clientOrderId] : []));
        expect(new Set(cancelled).size).toBe(cancelled.length);
        for (const i of intents) {
          if (i.kind === 'place-limit' && i.side === 'buy') expect(i.price.lt(bid.plus('0.05'))).toBe(true);
          if (i.kind === 'place-limit' && i.side === 'sell') expect(i.price.gt(bid)).toBe(true);
        }
      }),
    );
  });
});

describe('grid on virtual time (marbles)', () => {
  it('builds the grid around the first mid', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const book$ = cold('a', { a: bookFixture({ bid: '99.9', ask: '100.1', tick: '0.01' }) });
      const ctx = createTestContext({ market, params, scheduler, book$ });
      expectObservable(grid.create(ctx)).toBe('(abcd)', {
        a: place('buy', '99', 0),
        b: place('buy', '99.5', 1),
        c: place('sell', '100.5', 3),
        d: place('sell', '101', 4),
      });
    });
  });

  it('without lower/upper, spans the first mid ∓ range', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const auto = grid.params.parse({ range: '0.01', levels: 3, amount: '0.1' });
      const ctx = createTestContext({ market, params: auto, scheduler, book$: cold('a', { a: bookFixture({ bid: '199.99', ask: '200.01', tick: '0.01' }) }) });
      expectObservable(grid.create(ctx)).toBe('(ab)', { a: place('buy', '198', 0), b: place('sell', '202', 2) });
    });
  });

  it('after a restart fills in only what is missing', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const adopted = [
        ownOrderFixture({ clientOrderId: 'g0', side: 'buy', price: '99', amount: '0.1', tag: gridTag(0) }),
        ownOrderFixture({ clientOrderId: 'g3', side: 'sell', price: '100.5', amount: '0.1', tag: gridTag(3) }),
        ownOrderFixture({ clientOrderId: 'g4', side: 'sell', price: '101', amount: '0.1', tag: gridTag(4) }),
      ];
      const ctx = createTestContext({
        market,
        params,
        scheduler,
        book$: cold('a', { a: bookFixture({ bid: '99.9', ask: '100.1', tick: '0.01' }) }),
        orders$: cold('a', { a: adopted }),
      });
      expectObservable(grid.create(ctx)).toBe('a', { a: place('buy', '99.5', 1) });
    });
  });

  it('places the opposite order one level away when a level fills', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      const resting = [
        ownOrderFixture({ clientOrderId: 'g0', side: 'buy', price: '99', amount: '0.1', tag: gridTag(0) }),
        ownOrderFixture({ clientOrderId: 'g1', side: 'buy', price: '99.5', amount: '0.1', tag: gridTag(1) }),
        ownOrderFixture({ clientOrderId: 'g3', side: 'sell', price: '100.5', amount: '0.1', tag: gridTag(3) }),
        ownOrderFixture({ clientOrderId: 'g4', side: 'sell', price: '101', amount: '0.1', tag: gridTag(4) }),
      ];
      const afterFill = resting.filter((o) => o.clientOrderId !== 'g1');
      const deal = {
        id: 1,
        time: 1,
        market: 'BTC_USDT',
        side: 'buy' as const,
        role: 'maker' as const,
        amount: D('0.1'),
        price: D('99.5'),
        deal: D('9.95'),
        fee: D('0.00995'),
        orderId: 7,
        clientOrderId: 'g1',
      };
      const ctx = createTestContext({
        market,
        params,
        scheduler,
        book$: hot('a 9ms b', { a: bookFixture({ bid: '99.9', ask: '100.1', tick: '0.01' }), b: bookFixture({ bid: '99.4', ask: '99.6', tick: '0.01' }) }),
        orders$: hot('a 9ms - b', { a: resting, b: afterFill }),
        fills$: hot('- 9ms f', { f: deal }),
      });
      // the fill at level 1 moves the gap there: level 2 (the old gap) gets a sell, level 1 stays empty
      expectObservable(grid.create(ctx)).toBe('- 9ms a', { a: place('sell', '100', 2) });
    });
  });
});

describe('grid against a paper loop (one order per level at every moment)', () => {
  it('keeps at most one order per level through a random walk, fills in either order and a restart', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 20, maxLength: 120 }),
        fc.boolean(),
        fc.integer({ min: 5, max: 100 }),
        (moves, fillsFirst, restartAt) => {
          let loop = new PaperLoop(grid, params, market, { fillsFirst });
          let mid = D('100');
          moves.forEach((m, step) => {
            if (step === restartAt) loop = loop.restart(grid, params); // same open orders, fresh strategy instance
            mid = mid.plus(D('0.25').times(m));
            loop.setBook(mid.minus('0.05'), mid.plus('0.05'));
          });
          loop.dispose();
          expect(loop.maxOrdersPerTag()).toBeLessThanOrEqual(1);
          expect(loop.everPlaced).toBeGreaterThan(0);
          expect(loop.badCancels).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('trades round trips on a swinging market: each fill re-arms the neighbouring level', () => {
    const loop = new PaperLoop(grid, params, market);
    const path = ['100', '99.4', '100.1', '100.6', '99.9', '98.9', '100.2', '101.2', '100'];
    for (const mid of path) loop.setBook(D(mid).minus('0.05'), D(mid).plus('0.05'));
    loop.dispose();
    expect(loop.fills).toBeGreaterThanOrEqual(6);
    expect(loop.maxOrdersPerTag()).toBe(1);
    expect(loop.badCancels).toBe(0);
    // every level holds exactly one order except the gap
    const tags = loop
      .live()
      .map((o) => o.tag)
      .sort();
    expect(tags.length).toBe(4);
    expect(new Set(tags).size).toBe(4);
  });
});
