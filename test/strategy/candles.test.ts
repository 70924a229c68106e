import fc from 'fast-check';
import { from, map, Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { Candle, PublicTrade } from '../../src/strategy/index.js';
import { candles } from '../../src/strategy/candles.js';
import { tradeFixture } from '../../src/strategy/testing.js';

/** Issue 26 item 8: OHLCV candles of a market's public trades, the same whatever the trades' arrival times. */
const trade = (id: number, time: number, price: string, amount = '1'): PublicTrade => tradeFixture({ id, time, price, amount });
const plain = (c: Candle) => ({
  start: c.start,
  o: c.open.toFixed(),
  h: c.high.toFixed(),
  l: c.low.toFixed(),
  c: c.close.toFixed(),
  v: c.volume.toFixed(),
  q: c.value.toFixed(),
  n: c.trades,
});
const flat = (start: number, price: string) => ({ start, o: price, h: price, l: price, c: price, v: '0', q: '0', n: 0 });
const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** Candles of trades given all at once (completing: the last one is given as it is). */
function collect(trades: readonly PublicTrade[]): ReturnType<typeof plain>[] {
  const out: Candle[] = [];
  from(trades)
    .pipe(candles(10_000, { scheduler: new TestScheduler(() => undefined) }))
    .subscribe((c) => out.push(c));
  return out.map(plain);
}

describe('candles', () => {
  it("gives a period's candle as soon as a trade of a later period arrives: open, high, low, close, volume, value, count", () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const trades = cold('a 99ms b 99ms c 99ms d', {
        a: trade(1, 1_000, '100', '1'),
        b: trade(2, 4_000, '103', '2'),
        c: trade(3, 9_999, '99', '0.5'),
        d: trade(4, 10_000, '101'),
      });
      expectObservable(trades.pipe(candles(10_000, { scheduler }), map(plain)), '^ 1s !').toBe('300ms x', {
        x: { start: 0, o: '100', h: '103', l: '99', c: '99', v: '3.5', q: '355.5', n: 3 },
      });
    });
  });

  it('closes a quiet period on the clock, closeAfterMs past its end, then gives flat candles at the last close', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const trades = cold<PublicTrade>('a', { a: trade(1, 0, '100') });
      expectObservable(trades.pipe(candles(10_000, { scheduler, closeAfterMs: 3_000 }), map(plain)), '^ 45s !').toBe('13s x 9999ms y 9999ms z 9999ms w', {
        x: { start: 0, o: '100', h: '100', l: '100', c: '100', v: '1', q: '100', n: 1 },
        y: flat(10_000, '100'),
        z: flat(20_000, '100'),
        w: flat(30_000, '100'),
      });
    });
  });

  it('fills a gap between trades with flat candles, and drops a trade older than the candles given', () => {
    expect(collect([trade(1, 5_000, '100'), trade(2, 35_000, '110'), trade(3, 2_000, '50')])).toEqual([
      { start: 0, o: '100', h: '100', l: '100', c: '100', v: '1', q: '100', n: 1 },
      flat(10_000, '100'),
      flat(20_000, '100'),
      { start: 30_000, o: '110', h: '110', l: '110', c: '110', v: '1', q: '110', n: 1 },
    ]);
  });

  it('refuses a period that is not a whole number of ms > 0', () => {
    const scheduler = newScheduler();
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => candles(bad, { scheduler })).toThrow(RangeError);
  });

  it('the same trades give the same candles whenever each arrives within closeAfterMs of its time (property, seeded)', () => {
    const trades = fc
      .array(
        fc.record({
          gap: fc.integer({ min: 0, max: 25_000 }),
          price: fc.integer({ min: 1, max: 1000 }),
          amount: fc.integer({ min: 1, max: 50 }),
          lag: fc.integer({ min: 0, max: 2_999 }),
        }),
        {
          minLength: 1,
          maxLength: 60,
        },
      )
      .map((xs) => {
        let time = 0;
        return xs.map((x, i) => ({ trade: trade(i + 1, (time += x.gap), String(x.price), String(x.amount)), lag: x.lag }));
      });
    fc.assert(
      fc.property(trades, (ts) => {
        const scheduler = new TestScheduler(() => undefined);
        const got: Candle[] = [];
        scheduler.run(() => {
          const arriving = new Subject<PublicTrade>();
          arriving.pipe(candles(10_000, { scheduler, closeAfterMs: 3_000 })).subscribe((c) => got.push(c));
          // each trade arrives up to 2.999 s after its time, in order (trades made at once may arrive at once)
          let at = 0;
          for (const { trade: t, lag } of ts) {
            at = Math.max(at, t.time + lag);
            scheduler.schedule(() => arriving.next(t), at);
          }
          scheduler.schedule(() => arriving.complete(), at + 1);
        });
        expect(got.map(plain)).toEqual(collect(ts.map((x) => x.trade)));
      }),
      { seed: 26, numRuns: 200 },
    );
  });
});
