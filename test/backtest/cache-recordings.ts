/** Recordings and cache folders the recording-cache tests share. */
import { readdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { formatPlainDecimal } from '../../backtest/data/plain-decimal.js';
import { encodeLine } from '../../src/recording/recording-format.js';
import { btcUsdtWireMarket } from './fixtures.js';

const market = btcUsdtWireMarket();

/** The cache files in a cache folder. */
export const cacheFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.v4rc'));

/** Writes lines as a recording: each member its own gzip member (or plain text without gzip). */
export function writeRecording(file: string, members: readonly (readonly string[])[]): void {
  const text = members.map((m) => m.map((l) => `${l}\n`).join(''));
  writeFileSync(file, file.endsWith('.gz') ? Buffer.concat(text.map((t) => gzipSync(t))) : text.join(''));
}

/** `n` one-second books of BTC_USDT (a trade every third second) at `file`, in two members; returns `file`. */
export function longRecording(file: string, n = 300, seed = 1): string {
  const lines = [encodeLine({ type: 'market', version: 1, market })];
  for (let i = 0; i < n; i++) {
    const bid = 3_000_000 + ((i * 7919 + seed) % 500);
    const px = (ticks: number) => formatPlainDecimal(ticks, 2);
    lines.push(
      encodeLine({
        type: 'book',
        t: 1_700_000_000_000 + i * 1000,
        book: {
          ticker_id: 'BTC_USDT',
          timestamp: 1_700_000_000 + i,
          asks: [
            [px(bid + 1), '0.50000'],
            [px(bid + 2), '1.25000'],
          ],
          bids: [[px(bid), '2.00000']],
        },
      }),
    );
    if (i % 3 === 0)
      lines.push(encodeLine({ type: 'trade', t: 1_700_000_000_500 + i * 1000, price: px(bid), amount: '0.01000', side: i % 2 ? 'buy' : 'sell' }));
  }
  writeRecording(file, [lines.slice(0, 100), lines.slice(100)]);
  return file;
}
