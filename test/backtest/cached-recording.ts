import { join } from 'node:path';
import { expect } from 'vitest';
import { buildRecordingCache } from '../../backtest/data/recording-cache.js';
import { DataFeed } from '../../backtest/replay/data-feed.js';
import type { RecordedSnapshot } from '../../src/recording/recording-format.js';
import { RecordingWriter } from '../../src/recording/recording-writer.js';
import type { WireLevel } from '../../src/venue/wire.js';
import { btcUsdtWireMarket } from './fixtures.js';

/**
 * Writes `books` (one a second) as a BTC_USDT recording `<dir>/<name>.jsonl.gz`, builds its binary cache, and returns
 * a reader of its snapshots from the cache (`fromCache` true) or from the text, checked to come from there.
 */
export async function recordAndCache(
  dir: string,
  books: readonly { asks: WireLevel[]; bids: WireLevel[] }[],
  name: string,
): Promise<(fromCache: boolean) => Promise<RecordedSnapshot[]>> {
  const file = join(dir, `${name}.jsonl.gz`);
  const writer = new RecordingWriter({ out: file, market: btcUsdtWireMarket(), source: 'test' });
  books.forEach((b, i) => writer.write({ type: 'book', t: 1_700_000_000_000 + i * 1000, book: { ticker_id: 'BTC_USDT', timestamp: 1_700_000_000 + i, ...b } }));
  await writer.close();
  const cache = { dir: join(dir, `cache-${name}`) };
  expect((await buildRecordingCache(file, { ...cache, force: true })).status).toBe('built');
  return async (fromCache) => {
    const feed = new DataFeed({ files: [file], cache: fromCache ? cache : { dir: false } });
    const out: RecordedSnapshot[] = [];
    for (let e = await feed.next(); e !== undefined; e = await feed.next()) if (e.kind === 'book') out.push(e.snapshot);
    expect(feed.sources).toEqual([fromCache ? 'cache' : 'text']);
    return out;
  };
}
