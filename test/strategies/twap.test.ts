import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TestScheduler } from 'rxjs/testing';
import { pino } from 'pino';
import { D } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';
import { bookFixture, createTestContext, marketFixture, ownOrderFixture } from '../../src/strategy/testing.js';
import twap from '../../strategies/twap/index.js';
import { currentSlice, planTwap, slicePrice, sliceTag, type TwapInput } from '../../strategies/twap/twap-plan.js';
import { PaperLoop } from './paper-loop.js';

const market = marketFixture({ minAmount: D('0.001'), minTotal: D('5') });

const deal = (id: number, amount: string, clientOrderId: string): Deal => ({
  id,
  time: 0,
  market: 'BTC_USDT',
  side: 'buy',
  role: 'maker',
  amount: D(amount),
  price: D('100.01'),
  deal: D(amount).times('100.01'),
  fee: D(0),
  orderId: id,
  clientOrderId,
});

describe('twap pricing', () => {
  const limit = D('1000');
  it('buys inside the touch, but never at or across the ask, never above the limit', () => {
    expect(slicePrice(market, 'buy', 1, limit, D('100'), D('101'))!.toFixed()).toBe('100.01');
    expect(slicePrice(market, 'buy', 1, limit, D('100'), D('100.01'))!.toFixed()).toBe('100');
    expect(slicePrice(market, 'buy', 0, limit, D('100'), D('101'))!.toFixed()).toBe('100');
    expect(slicePrice(market, 'buy', 1, D('99.5'), D('100'), D('101'))!.toFixed()).toBe('99.5');
    expect(slicePrice(market, 'buy', 1, limit)).toBeUndefined();
  });

  it('sells inside the touch, never at or across the bid, never below the limit', () => {
    expect(slicePrice(market, 'sell', 1, D('1'), D('100'), D('101'))!.toFixed()).toBe('100.99');
    expect(slicePrice(market, 'sell', 3, D('1'), D('100'), D('100.02'))!.toFixed()).toBe('100.01');
    expect(slicePrice(market, 'sell', 1, D('101.5'), D('100'), D('101'))!.toFixed()).toBe('101.5');
  });

  it('never crosses the book nor the limit (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 1_000_000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 100, max: 1_000_000 }),
        fc.boolean(),
        (bidC, spreadC, ticks, limitC, buy) => {
          const bid = D(bidC).div(100);
          const ask = bid.plus(D(spreadC).div(100));
          const lim = D(limitC).div(100);
          const price = slicePrice(market, buy ? 'buy' : 'sell', ticks, lim, bid, ask)!;
          if (buy) expect(price.lt(ask) && price.lte(lim)).toBe(true);
          else expect(price.gt(bid) && price.gte(lim)).toBe(true);
          expect(price.decimalPlaces()).toBeLessThanOrEqual(2);
        },
      ),
    );
  });
});

describe('twap plan', () => {
  const params = twap.params.parse({ total: '1', slices: 4, durationMs: 4000, settleMs: 100 });
  const input = (o: Partial<TwapInput>): TwapInput => ({
    market,
    params,
    startedAt: 0,
    now: 0,
    filled: D(0),
    limit: D('1000'),
    bid: D('100'),
    ask: D('101'),
    live: [],
    canceling: new Set(),
    placing: false,
    ...o,
  });
  const placeOf = (d: ReturnType<typeof planTwap>) => (d.kind === 'act' ? d.intents[0] : undefined);

  it('counts slices from the start and keeps counting after the duration', () => {
    expect([0, 999, 1000, 3999, 4000, 9000].map((t) => currentSlice(params, 0, t))).toEqual([1, 1, 2, 4, 5, 10]);
  });

  it('sizes each slice to catch up with the schedule (remainder carried forward)', () => {
    expect(placeOf(planTwap(input({})))).toEqual({ kind: 'place-limit', side: 'buy', price: D('100.01'), amount: D('0.25'), tag: sliceTag(1) });
    expect(placeOf(planTwap(input({ now: 2000, filled: D('0.1') })))).toMatchObject({ amount: D('0.65'), tag: sliceTag(3) });
  });

  it('cancels the order of an earlier slice, then waits for it to leave and for its fills to settle', () => {
    const o = ownOrderFixture({ clientOrderId: 'a', side: 'buy', price: '100.01', amount: '0.25', tag: sliceTag(1) });
    expect(planTwap(input({ now: 500, live: [o] })).kind).toBe('wait');
    expect(planTwap(input({ now: 1000, live: [o] }))).toEqual({ kind: 'act', slice: 2, intents: [{ kind: 'cancel', clientOrderId: 'a' }] });
    expect(planTwap(input({ now: 1010, live: [o], canceling: new Set(['a']) })).kind).toBe('wait');
    expect(planTwap(input({ now: 1050, lastGoneAt: 1000 })).kind).toBe('wait');
    expect(planTwap(input({ now: 1100, lastGoneAt: 1000 })).kind).toBe('act');
  });

  it('carries a slice below the market minimums forward, and stops with the dust it cannot trade', () => {
    const small = twap.params.parse({ total: '0.003', slices: 10, durationMs: 10_000 });
    const at = (now: number, filled = '0') => planTwap(input({ params: small, now, filled: D(filled), bid: D('30000'), ask: D('30001'), limit: D('40000') }));
    expect(at(0).kind).toBe('wait'); // 0.0003 < min amount 0.001
    expect(placeOf(at(3000))).toMatchObject({ amount: D('0.0012') });
    expect(at(12_000, '0.0025')).toEqual({ kind: 'done', slice: 13, dust: D('0.0005') });
    expect(at(12_000, '0.003')).toEqual({ kind: 'done', slice: 13, dust: D('0') });
  });
});

describe('twap on virtual time (marbles)', () => {
  it('slices, cancels the stale slice, carries its remainder, reports progress and completes when done', () => {
    const lines: Array<{ msg: string; pct?: string }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const scheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    scheduler.run(({ hot, expectObservable }) => {
      const params = twap.params.parse({ total: '1', slices: 2, durationMs: 2000, settleMs: 100 });
      const o1 = ownOrderFixture({ clientOrderId: 'o1', side: 'buy', price: '100.01', amount: '0.5', tag: sliceTag(1) });
      const o2 = ownOrderFixture({ clientOrderId: 'o2', side: 'buy', price: '100.01', amount: '0.8', tag: sliceTag(2) });
      const book = bookFixture({ bid: '100', ask: '101' });
      const ctx = createTestContext({
        market,
        params,
        scheduler,
        log,
        book$: hot('a 1199ms b', { a: book, b: book }),
        orders$: hot('a 9ms b 1039ms c 159ms d 299ms e', { a: [], b: [o1], c: [], d: [o2], e: [] }),
        fills$: hot('500ms f 999ms g', { f: deal(1, '0.2', 'o1'), g: deal(2, '0.8', 'o2') }),
      });
      expectObservable(twap.create(ctx)).toBe('a 999ms b 199ms c 799ms |', {
        a: { kind: 'place-limit', side: 'buy', price: D('100.01'), amount: D('0.5'), tag: sliceTag(1) },
        b: { kind: 'cancel', clientOrderId: 'o1' },
        c: { kind: 'place-limit', side: 'buy', price: D('100.01'), amount: D('0.8'), tag: sliceTag(2) },
      });
    });
    expect(lines.filter((l) => l.msg === 'twap progress').map((l) => l.pct)).toEqual(['20', '100']);
    expect(lines.at(-1)?.msg).toBe('twap done');
  });
});

describe('twap against a paper loop', () => {
  it('trades exactly the total, one order at a time, never above the limit, and completes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -2, max: 2 }), { minLength: 40, maxLength: 40 }), (moves) => {
        const params = twap.params.parse({ total: '0.05', slices: 5, durationMs: 5000, settleMs: 500, priceLimit: '30010' });
        const loop = new PaperLoop(twap, params, market, { stock: D(0), money: D(1_000_000) });
        let bid = D('30000');
        let maxLive = 0;
        for (const m of moves) {
          bid = bid.plus(m);
          loop.setBook(bid, bid.plus(m < 0 ? '0.01' : '2'));
          maxLive = Math.max(maxLive, loop.live().length);
          if (loop.completed) break;
        }
        loop.dispose();
        expect(maxLive).toBeLessThanOrEqual(1);
        for (const i of loop.placed) if (i.kind === 'place-limit') expect(i.price.lte('30010')).toBe(true);
        expect(loop.badCancels).toBe(0);
        expect(loop.stockBalance().lte('0.05')).toBe(true); // never over-trades
        if (loop.completed) expect(loop.stockBalance().toFixed()).toBe('0.05');
      }),
      { numRuns: 40 },
    );
  });

  it('completes on a falling market with the total bought', () => {
    const params = twap.params.parse({ total: '0.05', slices: 5, durationMs: 5000, settleMs: 500 });
    const loop = new PaperLoop(twap, params, market, { stock: D(0), money: D(1_000_000) });
    for (let i = 0; i < 30 && !loop.completed; i++) loop.setBook(D('30000').minus(i), D('30000.01').minus(i));
    loop.dispose();
    expect(loop.completed).toBe(true);
    expect(loop.stockBalance().toFixed()).toBe('0.05');
    expect(loop.fills).toBeGreaterThan(1); // in slices, not at once
  });
});
