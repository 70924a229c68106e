/**
 * Writes Tardis.dev-schema CSVs (incremental_book_L2 and trades, gzip) from the Binance capture, into a
 * temp dir: the REST snapshot becomes an is_snapshot run, each diff the Binance sync rule applies becomes
 * update rows (quantity 0 = delete, as in both formats), each trade a trades row with the taker's side.
 * local_timestamp is the capture's receive time (µs), so a Tardis import must give the very same book
 * as the Binance importer at every grid time.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { BinanceBook } from '../../backtest/importers/binance-book.js';
import { readBinanceCapture, type BinanceDiff } from '../../backtest/importers/binance-capture.js';

/**
 * Lines are handed to gzip in ~64 KB chunks: a write per line (300k of them) cost ~9 s of CPU, most of it the
 * stream's and zlib's per-call overhead (half in the kernel), for the same bytes.
 */
function gzipWriter(path: string): { write(line: string): void; close(): Promise<void> } {
  const gz = createGzip();
  const file = createWriteStream(path);
  gz.pipe(file);
  let chunk = '';
  return {
    write: (line) => {
      chunk += line + '\n';
      if (chunk.length >= 65_536) {
        gz.write(chunk);
        chunk = '';
      }
    },
    close: () =>
      new Promise((resolve, reject) => {
        file.once('close', () => resolve());
        file.once('error', reject);
        gz.end(chunk);
      }),
  };
}

export async function writeTardisFromBinance(files: readonly string[], dir: string): Promise<{ book: string; trades: string; rows: number }> {
  const bookPath = join(dir, 'binance_incremental_book_L2_2024-08-08_BTCUSDT.csv.gz');
  const tradesPath = join(dir, 'binance_trades_2024-08-08_BTCUSDT.csv.gz');
  const book = gzipWriter(bookPath);
  const trades = gzipWriter(tradesPath);
  book.write('exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount');
  trades.write('exchange,symbol,timestamp,local_timestamp,id,side,price,amount');
  const rebuild = new BinanceBook(100);
  let pending: BinanceDiff[] = [];
  let rows = 0;
  let tradeId = 0;
  const us = (t: number): string => String(t * 1000 + 123); // sub-ms digits the importer must floor away
  const update = (d: BinanceDiff, t: number): void => {
    for (const [p, q] of d.b) book.write(`binance,BTCUSDT,${us(t)},${us(t)},false,bid,${p},${q}`);
    for (const [p, q] of d.a) book.write(`binance,BTCUSDT,${us(t)},${us(t)},false,ask,${p},${q}`);
    rows += d.b.length + d.a.length;
  };
  for await (const m of readBinanceCapture(files)) {
    if (m.kind === 'snapshot') {
      for (const [p, q] of m.bids) book.write(`binance,BTCUSDT,${us(m.t)},${us(m.t)},true,bid,${p},${q}`);
      for (const [p, q] of m.asks) book.write(`binance,BTCUSDT,${us(m.t)},${us(m.t)},true,ask,${p},${q}`);
      rows += m.bids.length + m.asks.length;
      const results = rebuild.snapshot(m);
      results.forEach((r, i) => {
        if (r.outcome === 'applied') update(pending[i]!, m.t);
      });
      pending = [];
    } else if (m.kind === 'diff') {
      const r = rebuild.diff(m);
      if (r.outcome === 'buffered') pending.push(m);
      else if (r.outcome === 'applied') update(m, m.t);
      else if (r.outcome === 'gap') throw new Error('the fixture assumes a capture without gaps');
    } else if (m.kind === 'trade') {
      trades.write(`binance,BTCUSDT,${us(m.t)},${us(m.t)},${++tradeId},${m.buyerMaker ? 'sell' : 'buy'},${m.price},${m.qty}`);
    }
  }
  await Promise.all([book.close(), trades.close()]);
  return { book: bookPath, trades: tradesPath, rows };
}
