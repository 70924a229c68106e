import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BinanceBook } from '../../backtest/importers/binance-book.js';
import { readBinanceCapture, type BinanceBookTicker } from '../../backtest/importers/binance-capture.js';
import { importBinanceDepth, trimDecimal } from '../../backtest/importers/binance-depth-importer.js';
import { readRecordingLines } from '../../src/recording/recording-format.js';
import { binanceImportOnce } from './binance-import-once.js';
import { BINANCE_FILES, btcUsdtWireMarket } from './fixtures.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-import-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('Binance diff-depth rebuild', () => {
  it('agrees with the capture’s own bookTicker stream after (almost) every update', async () => {
    const book = new BinanceBook(100);
    const tickers: BinanceBookTicker[] = [];
    const tops: Array<{ u: number; bid: string | undefined; ask: string | undefined; crossed: boolean }> = [];
    const record = (): void => {
      tops.push({ u: book.lastUpdateId, bid: book.bestBid(), ask: book.bestAsk(), crossed: book.crossed() });
    };
    for await (const m of readBinanceCapture(BINANCE_FILES)) {
      if (m.kind === 'bookTicker') tickers.push(m);
      else if (m.kind === 'snapshot') {
        for (const r of book.snapshot(m)) if (r.outcome === 'applied') record();
      } else if (m.kind === 'diff') {
        const r = book.diff(m);
        expect(r.outcome).not.toBe('gap');
        if (r.outcome === 'applied') record();
      }
    }
    expect(book.stats.gaps).toBe(0);
    expect(tops.length).toBe(6493);
    expect(tops.some((t) => t.crossed)).toBe(false);

    // For each applied update: the bookTicker with the largest u at or below the update's u.
    tickers.sort((a, b) => a.u - b.u);
    let agree = 0;
    let j = -1;
    for (const top of [...tops].sort((a, b) => a.u - b.u)) {
      while (j + 1 < tickers.length && tickers[j + 1]!.u <= top.u) j += 1;
      const tk = tickers[j];
      if (tk && top.bid === tk.bid && top.ask === tk.ask) agree += 1;
    }
    expect(agree).toBeGreaterThanOrEqual(6491);
  });

  it('writes sampled snapshots and trades in the recording format', async () => {
    // the import binance-backtest replays too, made once per run
    const { file: out, summary } = await binanceImportOnce(tmp);
    expect(summary.gaps).toBe(0);
    // about 650 s of data after the snapshot, one sample a second
    expect(summary.snapshots).toBeGreaterThan(600);
    expect(summary.snapshots).toBeLessThan(660);
    expect(summary.trades).toBeGreaterThan(19_000);
    let head = 0;
    let books = 0;
    let trades = 0;
    let lastT = 0;
    for await (const line of readRecordingLines(out)) {
      if (line.type === 'market') {
        head += 1;
        expect(line.market.name).toBe('BTC_USDT');
        continue;
      }
      expect(line.t).toBeGreaterThanOrEqual(lastT);
      lastT = line.t;
      if (line.type === 'book') {
        books += 1;
        expect(line.book.asks.length).toBe(20);
        expect(line.book.bids.length).toBe(20);
        expect(Number(line.book.bids[0]![0])).toBeLessThan(Number(line.book.asks[0]![0]));
        expect(line.t % 1000).toBe(0);
      } else trades += 1;
    }
    expect(head).toBe(1);
    expect(books).toBe(summary.snapshots);
    expect(trades).toBe(summary.trades);
  });

  it('trims padded decimals without changing their value', () => {
    expect(trimDecimal('61837.63000000')).toBe('61837.63');
    expect(trimDecimal('3.00000000')).toBe('3');
    expect(trimDecimal('0.00000000')).toBe('0');
    expect(trimDecimal('100')).toBe('100');
  });

  it('a bad capture line is a typed error naming file and line, and the partial output is removed', async () => {
    // the grid time 2000 is written (at line 3) before line 4 fails
    const file = join(tmp, 'bad-capture.txt');
    const snapshot = '{"lastUpdateId":10,"bids":[["100.00","1"]],"asks":[["101.00","1"]]}';
    const diff = (U: number, b: string): string => `{"stream":"btcusdt@depth@100ms","data":{"U":${U},"u":${U},"b":${b},"a":[]}}`;
    writeFileSync(
      file,
      [`1000000000 ${snapshot}`, `1500000000 ${diff(11, '[["100.00","2"]]')}`, `2500000000 ${diff(12, '[]')}`, `3500000000 ${diff(13, '[["100.00",2]]')}`].join(
        '\n',
      ),
    );
    const out = join(tmp, 'bad.jsonl.gz');
    const error = await importBinanceDepth({ files: [file], intervalMs: 1000, limit: 20, out, market: btcUsdtWireMarket() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_CAPTURE_FORMAT' });
    expect((error as Error).message).toBe(`${file}:4: b holds a level that is not ["price", "quantity"]`);
    expect(existsSync(out)).toBe(false);
  });

  it('a --money-prec coarser than the capture’s prices is refused, naming the line (rounding would merge levels)', async () => {
    const market = { ...btcUsdtWireMarket(), moneyPrec: '1' };
    const out = join(tmp, 'coarse.jsonl.gz');
    const error = await importBinanceDepth({ files: BINANCE_FILES, intervalMs: 1000, limit: 20, out, market }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_CAPTURE_FORMAT' });
    expect((error as Error).message).toMatch(/btcusdt_20240808\.gz:\d+: price "\d+\.\d+" is not a multiple of the price step 1e-1 \(--money-prec\)/);
    expect(existsSync(out)).toBe(false);
  });
});
