import { firstValueFrom, from, tap, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { Intent } from '../../src/strategy/intents.js';
import type { Candle } from '../../src/strategy/index.js';
import { bookFixture, createPaperOrders, createTestContext, marketFixture, testParams, tradeFixture } from '../../src/strategy/testing.js';
import trendMm from '../../strategies/trend-mm/index.js';
import { trendQuotes } from '../../strategies/trend-mm/quotes.js';
import { trendOf } from '../../strategies/trend-mm/trend.js';

const market = marketFixture();
const top = { bid: D('30000'), ask: D('30001'), mid: D('30000.5') };
const show = (i: Intent): string => (i.kind === 'place-limit' ? `${i.side} ${i.price.toFixed()}` : i.kind === 'cancel' ? `cancel ${i.clientOrderId}` : i.kind);
const candle = (i: number, close: number): Candle => {
  const c = D(close);
  return { market: 'BTC_USDT', start: i * 1000, periodMs: 1000, open: c, high: c, low: c, close: c, volume: D(1), value: c, trades: 1 };
};

describe('trend-mm quotes', () => {
  const p = testParams(trendMm, { spread: '0.001', maxSkew: '0.001', standAsideAt: '0.001', maxInventory: '0.01' });
  const prices = (trend: number | undefined, inventory = '0') => trendQuotes(p, top, trend, D(inventory), market).map((q) => `${q.side} ${q.price.toFixed()}`);

  it('quotes around the mid without a trend, on the price step, away from the spread', () => {
    // 30000.5 × (1 ∓ 0.0005): 29985.49975 down to 29985.49, 30015.50025 up to 30015.51
    expect(prices(undefined)).toEqual(['buy 29985.49', 'sell 30015.51']);
    expect(prices(0)).toEqual(prices(undefined));
  });

  it('moves both quotes with the trend, at most maxSkew of the mid', () => {
    // centre 30000.5 × 1.0005 = 30015.50025
    expect(prices(0.0005)).toEqual(['buy 30000.49', 'sell 30030.51']);
    expect(prices(-0.0005)).toEqual(['buy 29970.5', 'sell 30000.5']);
    // at a trend of standAsideAt the side against it goes; the skew is capped at maxSkew (0.1 %)
    expect(prices(0.002)).toEqual(prices(0.0015));
    expect(prices(-0.002)).toEqual(prices(-0.0015));
    expect(prices(0.002)).toHaveLength(1);
    expect(prices(-0.002)).toHaveLength(1);
  });

  it('stays a maker: a bid stops a step below the ask, an ask a step above the bid', () => {
    // centre 30000.5 × 1.001 = 30030.5005: the bid would be 30015.48, above the ask
    expect(prices(0.002)).toEqual(['buy 30000.99']);
    expect(prices(-0.002)).toEqual(['sell 30000.01']);
  });

  it('does not add to an inventory of maxInventory', () => {
    expect(prices(undefined, '0.01')).toEqual(['sell 30015.51']);
    expect(prices(undefined, '-0.01')).toEqual(['buy 29985.49']);
  });
});

describe('trend-mm trend', () => {
  it('is (fast EMA − slow EMA) / slow EMA of the closes once the slow one is stable: up when rising, down when falling', async () => {
    const rising = await firstValueFrom(from([100, 101, 102, 103, 104, 105].map((c, i) => candle(i, c))).pipe(trendOf(2, 4), toArray()));
    expect(rising).toHaveLength(3);
    expect(rising.every((t) => t > 0)).toBe(true);
    const falling = await firstValueFrom(from([105, 104, 103, 102, 101].map((c, i) => candle(i, c))).pipe(trendOf(2, 4), toArray()));
    expect(falling.every((t) => t < 0)).toBe(true);
  });
});

/** What trend-mm emits, at which virtual time, over ten seconds of one trade a second, each `ratio` × the one before. */
function runOver(ratio: number): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
  scheduler.run(({ cold }) => {
    const params = testParams(trendMm, { candleMs: 1000, fast: 2, slow: 4, maxSkew: '0.001', standAsideAt: '0.001' });
    const paper = createPaperOrders({ now: () => scheduler.now() });
    const names = 'abcdefghij'.split('');
    const trades = Object.fromEntries(names.map((n, i) => [n, tradeFixture({ id: i + 1, time: i * 1000, price: (30000 * ratio ** i).toFixed(2) })]));
    const ctx = createTestContext({
      scheduler,
      market,
      params,
      // the book stays put (its mid is what the quotes centre on); finite streams: the candles give a flat candle
      // every period while they are listened to
      book$: cold(`${names.map(() => 'b').join(' 999ms ')}|`, { b: bookFixture({ bid: '30000', ask: '30001' }) }),
      trades$: cold(`${names.join(' 999ms ')}|`, trades),
      orders$: paper.orders$,
    });
    trendMm
      .create(ctx)
      .pipe(tap((i) => paper.apply(i)))
      .subscribe((i) => out.push([scheduler.now(), show(i)]));
  });
  return out;
}

const anyCancel = expect.stringMatching(/^cancel /) as unknown as string;

describe('trend-mm on virtual time', () => {
  it('quotes both sides, then follows a strong rise: the ask goes (standing aside), the bid moves up to the touch', () => {
    expect(runOver(1.002)).toEqual([
      // before the slow EMA has 4 candles: both sides around the mid, no skew
      [0, 'buy 29985.49'],
      [0, 'sell 30015.51'],
      // the 4th candle closes when the 5th's first trade arrives: a strong rise, the ask goes, the bid moves up
      [4000, anyCancel],
      [4000, anyCancel],
      [4000, 'buy 30000.99'],
    ]);
  });

  it('follows a strong fall the other way: the bid goes, the ask moves down to the touch', () => {
    expect(runOver(0.998)).toEqual([
      [0, 'buy 29985.49'],
      [0, 'sell 30015.51'],
      [4000, anyCancel],
      [4000, anyCancel],
      [4000, 'sell 30000.01'],
    ]);
  });

  it('moves both quotes up with a gentle rise, by trendGain × trend of the mid', () => {
    expect(runOver(1.0005)).toEqual([
      [0, 'buy 29985.49'],
      [0, 'sell 30015.51'],
      // a trend of about 0.00035, under standAsideAt: both sides stay, each about 10.4 higher
      [4000, anyCancel],
      [4000, anyCancel],
      [4000, 'buy 29995.9'],
      [4000, 'sell 30025.92'],
    ]);
  });
});
