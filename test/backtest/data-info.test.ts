import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordingInfo, type RecordingInfo } from '../../backtest/data/recording-info.js';
import { RecordingWriter } from '../../src/recording/recording-writer.js';
import type { OrderBookResponse } from '../../src/venue/wire.js';
import { runBot } from '../cli/venue-cli-harness.js';
import { useSim } from '../helpers/with-sim.js';
import { binanceImportOnce } from './binance-import-once.js';
import { btcUsdtWireMarket } from './fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-data-info-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const book = (bid: string | undefined, ask: string | undefined): OrderBookResponse => ({
  ticker_id: 'BTC_USDT',
  timestamp: 1,
  bids: bid === undefined ? [] : [[bid, '1']],
  asks: ask === undefined ? [] : [[ask, '1']],
});

describe('bot data info', () => {
  it('counts a hand-made recording exactly: cadence, gaps over twice the median (longest first), crossed and one-sided books, trades', async () => {
    const out = join(tmp, 'hand.jsonl.gz');
    const w = new RecordingWriter({ out, market: btcUsdtWireMarket(), source: 'hand' });
    const t0 = 1_700_000_000_000;
    // snapshots every second, with holes of 5 s and 3.5 s; one crossed (bid > ask), one locked (bid = ask), one one-sided
    const times = [0, 1000, 2000, 3000, 8000, 9000, 10_000, 13_500, 14_500, 15_500];
    times.forEach((dt, i) => {
      const b = i === 2 ? book('100.02', '100.01') : i === 6 ? book('100.01', '100.01') : i === 7 ? book(undefined, '100.5') : book('100.00', '100.01');
      w.write({ type: 'book', t: t0 + dt, book: b });
      if (i % 3 === 0) w.write({ type: 'trade', t: t0 + dt, price: '100.01', amount: '0.5', side: 'buy' });
    });
    await w.close();
    const info = await recordingInfo(out);
    expect(info).toMatchObject({
      market: 'BTC_USDT',
      source: 'hand',
      tradesComplete: false,
      firstT: t0,
      lastT: t0 + 15_500,
      spanMs: 15_500,
      snapshots: 10,
      trades: 4,
      crossedBooks: 2,
      oneSidedBooks: 1,
      timeReversals: 0,
      cadence: { medianMs: 1000, maxMs: 5000 },
    });
    expect(info.gaps).toEqual({
      thresholdMs: 2000,
      count: 2,
      totalMs: 8500,
      longest: [
        { fromT: t0 + 3000, toT: t0 + 8000, ms: 5000 },
        { fromT: t0 + 10_000, toT: t0 + 13_500, ms: 3500 },
      ],
    });
  });

  describe('on a recording of the simulated exchange (bot record with trades, then bot data info)', () => {
    const sim = useSim();
    it('reports what the recorder wrote', async () => {
      const s = await sim();
      await waitUntil('the synthetic flow’s first quotes', () => {
        const book = s.exchange.book('BTC_USDT', { limit: 10 });
        return book.bids.length > 0 && book.asks.length > 0;
      });
      const out = join(tmp, 'sim.jsonl.gz');
      const rec = await runBot([
        'record',
        'BTC_USDT',
        '--base-url',
        s.baseUrl,
        '--interval',
        '100ms',
        '--limit',
        '10',
        '--count',
        '30',
        '--out',
        out,
        '--json',
      ]);
      expect(rec.code).toBe(0);
      const recorded = JSON.parse(rec.stdout) as { snapshots: number; trades: number };
      expect(recorded.snapshots).toBe(30);

      const r = await runBot(['data', 'info', out, '--json']);
      expect(r.code).toBe(0);
      const info = JSON.parse(r.stdout) as RecordingInfo;
      expect(info).toMatchObject({
        market: 'BTC_USDT',
        source: s.baseUrl,
        tradesComplete: true,
        snapshots: 30,
        trades: recorded.trades,
        crossedBooks: 0,
        oneSidedBooks: 0,
        timeReversals: 0,
      });
      // a 100 ms grid, polled over loopback
      expect(info.cadence.medianMs).toBeGreaterThanOrEqual(50);
      expect(info.cadence.medianMs).toBeLessThanOrEqual(150);
      expect(info.spanMs).toBeGreaterThanOrEqual(29 * 50);

      const text = await runBot(['data', 'info', out]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^market\s+BTC_USDT/m);
      expect(text.stdout).toMatch(/^snapshots\s+30, cadence median/m);
      expect(text.stdout).toMatch(new RegExp(`^trades\\s+${recorded.trades} \\(every trade of the period`, 'm'));
      expect(text.stdout).toMatch(/^crossed\s+0 books/m);

      // --no-trades: books only, and the head does not claim every trade
      const booksOnly = join(tmp, 'sim-books.jsonl.gz');
      expect(
        (await runBot(['record', 'BTC_USDT', '--base-url', s.baseUrl, '--interval', '100ms', '--count', '5', '--no-trades', '--out', booksOnly])).code,
      ).toBe(0);
      expect(await recordingInfo(booksOnly)).toMatchObject({ snapshots: 5, trades: 0, tradesComplete: false });
    }, 60_000);
  });

  it('on an import of the Binance capture: the importer’s counts, a 1 s grid without gaps, never crossed, every trade', async () => {
    // the import binance-import checks, made once per run (an import of its own cost ~1.5 s of CPU)
    const { file: out, summary } = await binanceImportOnce(tmp);
    const info = await recordingInfo(out);
    expect(info).toMatchObject({
      market: 'BTC_USDT',
      tradesComplete: true,
      snapshots: summary.snapshots,
      trades: summary.trades,
      crossedBooks: 0,
      oneSidedBooks: 0,
      timeReversals: 0,
      cadence: { medianMs: 1000, maxMs: 1000 },
    });
    expect(info.gaps.count).toBe(0);
    expect(info.spanMs).toBeGreaterThan(600_000);
  }, 180_000);

  it('a missing file is a usage error (exit 2) naming the file', async () => {
    const r = await runBot(['data', 'info', join(tmp, 'nope.jsonl.gz')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope.jsonl.gz');
  });
});
