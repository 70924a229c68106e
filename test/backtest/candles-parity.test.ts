import { ignoreElements, tap } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { PublicTrade } from '../../src/model/book.js';
import { D } from '../../src/model/decimal.js';
import { readRecordingLines, tradeFromLine } from '../../src/recording/recording-format.js';
import { candles } from '../../src/strategy/candles.js';
import { defineStrategy, z, type Candle } from '../../src/strategy/index.js';
import { tradesSource } from '../../src/streams/trades-source.js';
import { parsePublicTrades } from '../../src/venue/parse-public-trades.js';
import { runBacktest } from '../../backtest/replay/run-backtest.js';
import { advanceTo, record } from '../streams/virtual-time.js';

/**
 * Issue 26 item 8: "candles live and in backtests from recorded trades, with the same result on the same trades".
 * The sample recording's trades (20 minutes of `bot sim` recorded with `bot record`), as candles three ways:
 * - reference: the recorded trades straight through the candle operator;
 * - backtest: a strategy's ctx.candles in `runBacktest` (the backtest venue serves the recent-trades page from the
 *   recording, the daemon's runtime polls it within the rate limits on the stepping scheduler);
 * - live: the runtime's trade poller against the recent-trades page as the live venue answers it (wire JSON, whole
 *   seconds, newest first, read by the REST client's parser), each trade listed from the second it was made.
 * The backtest and live start mid-recording (their first page holds 100 trades, the first candle is partial): every
 * candle after the first must equal the reference's of the same period.
 */
const FILE = 'backtest/sample-data/sim-btc-usdt-trades.jsonl.gz';
const PERIOD = 10_000;
const plain = (c: Candle) =>
  [c.start, c.open.toFixed(), c.high.toFixed(), c.low.toFixed(), c.close.toFixed(), c.volume.toFixed(), c.value.toFixed(), c.trades].join(' ');

async function recordedTrades(): Promise<PublicTrade[]> {
  const out: PublicTrade[] = [];
  for await (const line of readRecordingLines(FILE)) {
    if (line.type !== 'trade') continue;
    const t = tradeFromLine('BTC_USDT', line);
    out.push({ ...t, id: line.id ?? out.length + 1, value: t.price.mul(t.amount) });
  }
  return out;
}

/** Every candle after the first, and the reference's candles of the same periods. */
function compare(got: readonly Candle[], reference: readonly Candle[]): { got: string[]; expected: string[] } {
  const byStart = new Map(reference.map((c) => [c.start, c]));
  const rest = got.slice(1);
  return { got: rest.map(plain), expected: rest.map((c) => byStart.get(c.start)).map((c) => (c === undefined ? 'none' : plain(c))) };
}

describe('candles of the same trades: live poller, backtest, reference', () => {
  it('agree candle for candle', async () => {
    const trades = await recordedTrades();
    expect(trades.length).toBeGreaterThan(2000);
    const reference: Candle[] = [];
    const { from } = await import('rxjs');
    from(trades)
      .pipe(candles(PERIOD, { scheduler: new TestScheduler(() => undefined) }))
      .subscribe((c) => reference.push(c));

    // backtest
    const seen: Candle[] = [];
    const probe = defineStrategy({
      name: 'candle-probe',
      params: z.object({}),
      create: (ctx) =>
        ctx.candles(PERIOD).pipe(
          tap((c) => seen.push(c)),
          ignoreElements(),
        ),
    });
    const result = await runBacktest({
      files: [FILE],
      cache: { dir: false },
      strategies: [{ id: 'probe', definition: probe, market: 'BTC_USDT', params: {} }],
      balances: { BTC: D(1), USDT: D(50_000) },
      polling: { bookMs: 1000, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 },
      assumptions: ['optimistic'],
      keepJournal: false,
    });
    expect(result.trades).toBeGreaterThan(2500); // those after the first book (the replay starts there)
    expect(seen.length).toBeGreaterThan(100);
    const backtest = compare(seen, reference);
    expect(backtest.got).toEqual(backtest.expected);

    // live: the venue lists a trade from the second it was made, its last 100, newest first, as wire JSON
    const scheduler = new TestScheduler(() => undefined);
    const start = trades[0]!.time + 60_000;
    scheduler.frame = start;
    const page = (now: number) =>
      trades
        .filter((t) => t.time <= now)
        .slice(-100)
        .reverse()
        .map((t) => ({
          tradeID: t.id,
          price: t.price.toFixed(),
          quote_volume: t.amount.toFixed(),
          base_volume: t.value.toFixed(),
          trade_timestamp: t.time / 1000,
          type: t.takerSide,
        }));
    const fetch = (market: string) => Promise.resolve(parsePublicTrades(JSON.parse(JSON.stringify(page(scheduler.now()))), '/api/v4/public/trades', market));
    const live = record(scheduler, tradesSource(fetch, 'BTC_USDT', { periodMs: 1000 }, scheduler).pipe(candles(PERIOD, { scheduler, closeAfterMs: 3000 })));
    await advanceTo(scheduler, trades[trades.length - 1]!.time + 5_000);
    live.stop();
    expect(live.values.length).toBeGreaterThan(100);
    const polled = compare(
      live.values.map(([, c]) => c),
      reference,
    );
    expect(polled.got).toEqual(polled.expected);
  }, 120_000);
});
