import { firstValueFrom, from, toArray } from 'rxjs';
import { EMA, SMA } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import { D, indicator, type Candle } from '../../src/strategy/index.js';

const candle = (start: number, close: number): Candle => {
  const c = D(close);
  return { market: 'BTC_USDT', start, periodMs: 1000, open: c, high: c, low: c, close: c, volume: D(1), value: c, trades: 1 };
};
const closes = [10, 11, 12, 13, 12, 11, 15, 16];
const series = closes.map((c, i) => candle(i * 1000, c));

describe('indicator (trading-signals on candles)', () => {
  it("gives the indicator's result on each candle's close once it is stable", async () => {
    const got = await firstValueFrom(
      from(series).pipe(
        indicator(() => new SMA(3)),
        toArray(),
      ),
    );
    const sma = new SMA(3);
    const expected = closes.map((c) => sma.add(c)).filter((r): r is number => r !== null);
    expect(got).toEqual(expected);
    expect(got).toHaveLength(closes.length - 2);
    expect(got[0]).toBe(11);
  });

  it('makes a fresh indicator for each subscriber, and reads what `input` picks', async () => {
    const ema = from(series).pipe(
      indicator(
        () => new EMA(2),
        (c) => c.close.toNumber() * 2,
      ),
    );
    const a = await firstValueFrom(ema.pipe(toArray()));
    const b = await firstValueFrom(ema.pipe(toArray()));
    expect(b).toEqual(a);
    const direct = new EMA(2);
    expect(a.at(-1)).toBeCloseTo(closes.map((c) => direct.add(c * 2)).at(-1)!, 12);
  });
});
