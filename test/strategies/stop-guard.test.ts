import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TestScheduler } from 'rxjs/testing';
import { D, ZERO } from '../../src/model/decimal.js';
import type { Balances } from '../../src/model/balance.js';
import { bookFixture, createTestContext, marketFixture, ownOrderFixture } from '../../src/strategy/testing.js';
import type { OwnOrder } from '../../src/strategy/index.js';
import stopGuard from '../../strategies/stop-guard/index.js';
import { planGuard, positionOf, stopTarget, type GuardInput } from '../../strategies/stop-guard/guard-plan.js';
import { PaperLoop } from './paper-loop.js';

const market = marketFixture({ minAmount: D('0.001'), minTotal: D('5.05') });
const params = stopGuard.params.parse({ baseline: '9.5', trail: '0.01', limitOffset: '0.002', step: '0.002', settleMs: 2000 });
const balances = (btc: string, usdt = '100000'): Balances => ({ BTC: { available: D(btc), freeze: ZERO }, USDT: { available: D(usdt), freeze: ZERO } });

const stopOrder = (
  o: Partial<Omit<OwnOrder, 'price' | 'amount' | 'left' | 'activationPrice'>> & { activation: string; price: string; amount: string; left?: string },
): OwnOrder =>
  ownOrderFixture({
    clientOrderId: 's1',
    side: 'sell',
    kind: 'stop-limit',
    tag: 'stop-guard',
    ...o,
    activationPrice: D(o.activation),
  });

describe('stop target', () => {
  it('guards a long with a sell stop-limit a trail below the bid, limit a bit lower, on the steps', () => {
    const t = stopTarget(market, params, D('0.5'), { bestBid: D('30000'), bestAsk: D('30000.5') }, D('10'));
    expect(t && { side: t.side, amount: t.amount.toFixed(), act: t.activationPrice.toFixed(), price: t.price.toFixed() }).toEqual({
      side: 'sell',
      amount: '0.5',
      act: '29700',
      price: '29640.6',
    });
  });

  it('guards a short with a buy stop-limit above the ask', () => {
    const t = stopTarget(market, params, D('-0.25'), { bestBid: D('29999.99'), bestAsk: D('30000.01') }, D('100000'));
    expect(t && { side: t.side, amount: t.amount.toFixed(), act: t.activationPrice.toFixed(), price: t.price.toFixed() }).toEqual({
      side: 'buy',
      amount: '0.25',
      act: '30300.02', // 30300.0101 rounded up, away from the market
      price: '30360.63', // 30300.02 × 1.002 = 30360.62004 rounded up
    });
  });

  it('places nothing the market minimums would reject, and never more than the balance can lock', () => {
    expect(stopTarget(market, params, D('0.0001'), { bestBid: D('30000') }, D('10'))).toBeUndefined();
    expect(stopTarget(market, params, D('0.5'), { bestBid: D('30000') }, D('0.2'))!.amount.toFixed()).toBe('0.2');
    expect(stopTarget(market, params, D('0.5'), {}, D('10'))).toBeUndefined();
  });

  it('quantized targets always satisfy the market rules (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5_000_000, max: 5_000_000 }), fc.integer({ min: 100, max: 10_000_000 }), (pos, bidCents) => {
        const position = D(pos).div(1_000_000);
        const bid = D(bidCents).div(100);
        const t = stopTarget(market, params, position, { bestBid: bid, bestAsk: bid.plus('0.01') }, D('1000000'));
        if (!t) return;
        expect(t.amount.decimalPlaces()).toBeLessThanOrEqual(market.stockPrec);
        expect(t.price.decimalPlaces()).toBeLessThanOrEqual(market.moneyPrec);
        expect(t.activationPrice.decimalPlaces()).toBeLessThanOrEqual(market.moneyPrec);
        expect(t.amount.gte(market.minAmount) && t.amount.times(t.price).gte(market.minTotal)).toBe(true);
        if (t.side === 'sell') expect(t.price.lt(t.activationPrice) && t.activationPrice.lt(bid)).toBe(true);
        else expect(t.price.gt(t.activationPrice) && t.activationPrice.gt(bid.plus('0.01'))).toBe(true);
        expect(t.amount.lte(position.abs())).toBe(true);
      }),
    );
  });
});

describe('stop guard plan', () => {
  const input = (o: Partial<GuardInput>): GuardInput => ({
    market,
    params,
    balances: balances('10'),
    bestBid: D('30000'),
    bestAsk: D('30000.5'),
    live: [],
    canceling: new Set(),
    placing: false,
    now: 0,
    state: {},
    ...o,
  });

  it('reads the position as base total minus baseline', () => {
    expect(positionOf({ BTC: { available: D('9'), freeze: D('1.25') } }, market, D('9.5')).toFixed()).toBe('0.75');
  });

  it('places a stop for an unguarded position and nothing while it rests unchanged', () => {
    expect(planGuard(input({})).intents).toEqual([
      { kind: 'place-stop-limit', side: 'sell', amount: D('0.5'), price: D('29640.6'), activationPrice: D('29700'), tag: 'stop-guard' },
    ]);
    const live = [stopOrder({ activation: '29700', price: '29640.6', amount: '0.5' })];
    expect(planGuard(input({ live, state: { anchor: D('30000') } })).intents).toEqual([]);
  });

  it('trails up by the step, never down', () => {
    const live = [stopOrder({ activation: '29700', price: '29640.6', amount: '0.5' })];
    // after a restart the anchor is recovered from the activation price (29700 / 0.99 = 30000)
    expect(planGuard(input({ live, bestBid: D('30059.99') })).intents).toEqual([]);
    expect(planGuard(input({ live, bestBid: D('30060') })).intents).toEqual([{ kind: 'cancel', clientOrderId: 's1' }]);
    expect(planGuard(input({ live, bestBid: D('25000') })).intents).toEqual([]);
  });

  it('replaces the stop when the position changed for settleMs, not before', () => {
    const live = [stopOrder({ activation: '29700', price: '29640.6', amount: '0.5' })];
    const first = planGuard(input({ live, balances: balances('9.8'), now: 1000 }));
    expect(first.intents).toEqual([]);
    const later = planGuard(input({ live, balances: balances('9.8'), now: 3000, state: first.state }));
    expect(later.intents).toEqual([{ kind: 'cancel', clientOrderId: 's1' }]);
    // the change went away in between: nothing happens
    const back = planGuard(input({ live, balances: balances('10'), now: 2500, state: first.state }));
    expect(back.intents).toEqual([]);
    expect(back.state.mismatchSince).toBeUndefined();
  });

  it('waits while a cancel or a place is in flight (never two stops locking one balance)', () => {
    const live = [stopOrder({ activation: '29700', price: '29640.6', amount: '0.5', cancelRequested: true })];
    expect(planGuard(input({ live, bestBid: D('31000') })).intents).toEqual([]);
    expect(planGuard(input({ placing: true })).intents).toEqual([]);
    expect(
      planGuard(input({ live: [stopOrder({ activation: '29700', price: '29640.6', amount: '0.5', state: 'pending' })], bestBid: D('31000') })).intents,
    ).toEqual([]);
  });
});

describe('stop guard on virtual time (marbles)', () => {
  it('guards the position once book, balances and orders are known', () => {
    const scheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    scheduler.run(({ cold, expectObservable }) => {
      const ctx = createTestContext({
        market,
        params,
        scheduler,
        book$: cold('a', { a: bookFixture({ bid: '30000', ask: '30000.5' }) }),
        balances$: cold('-- 5ms b', { b: balances('10') }),
      });
      expectObservable(stopGuard.create(ctx)).toBe('-- 5ms s', {
        s: { kind: 'place-stop-limit', side: 'sell', amount: D('0.5'), price: D('29640.6'), activationPrice: D('29700'), tag: 'stop-guard' },
      });
    });
  });
});

describe('stop guard trailing on virtual time (marbles)', () => {
  it('cancels the stop when the bid rose a step, and places the higher one once the cancel went through', () => {
    const scheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    scheduler.run(({ cold, hot, expectObservable }) => {
      const placed = stopOrder({ clientOrderId: 'p1', activation: '29700', price: '29640.6', amount: '0.5' });
      const ctx = createTestContext({
        market,
        params,
        scheduler,
        book$: hot('a 999ms b', { a: bookFixture({ bid: '30000', ask: '30000.5' }), b: bookFixture({ bid: '30100', ask: '30100.5' }) }),
        balances$: cold('x', { x: balances('10') }),
        orders$: hot('a 4ms b 1494ms c', { a: [], b: [placed], c: [] }),
      });
      expectObservable(stopGuard.create(ctx)).toBe('s 999ms c 499ms t', {
        s: { kind: 'place-stop-limit', side: 'sell', amount: D('0.5'), price: D('29640.6'), activationPrice: D('29700'), tag: 'stop-guard' },
        c: { kind: 'cancel', clientOrderId: 'p1' },
        t: { kind: 'place-stop-limit', side: 'sell', amount: D('0.5'), price: D('29739.4'), activationPrice: D('29799'), tag: 'stop-guard' },
      });
    });
  });
});

describe('stop guard against a paper loop', () => {
  it('trails the stop up as the price rises, one stop at a time, and is done once it fires', () => {
    const loop = new PaperLoop(stopGuard, params, market, { stock: D('10') });
    const path = ['30000', '30010', '30100', '30200', '30200', '30400', '30400', '30400', '30100', '29900', '29900', '29900'];
    for (const bid of path) loop.setBook(D(bid), D(bid).plus('0.5'));
    loop.dispose();
    const activations = loop.placed.flatMap((i) => (i.kind === 'place-stop-limit' ? [i.activationPrice.toNumber()] : []));
    expect(activations.length).toBeGreaterThanOrEqual(3);
    expect([...activations].sort((a, b) => a - b)).toEqual(activations); // only ever moved up
    expect(loop.maxOrdersPerTag()).toBe(1);
    expect(loop.badCancels).toBe(0);
    expect(loop.fills).toBe(1); // the last stop fired when the bid fell through it
    expect(loop.live()).toEqual([]); // flat again: nothing left to guard
  });
});
