import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRecordingCache } from '../../backtest/data/recording-cache.js';
import { DataFeed } from '../../backtest/replay/data-feed.js';
import { RecordedSnapshot, type BookSideName } from '../../src/recording/recording-format.js';
import { RecordingWriter } from '../../src/recording/recording-writer.js';
import type { WireLevel } from '../../src/venue/wire.js';
import { btcUsdtWireMarket } from './fixtures.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-level-scans-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SIDES: readonly BookSideName[] = ['asks', 'bids'];

/** Prices a few ticks apart, in any order (a lying venue's book need not be sorted), repeats included. */
const side = fc.array(
  fc.tuple(fc.integer({ min: 9_990, max: 10_010 }), fc.integer({ min: 0, max: 3 })).map(([ticks, qty]): WireLevel => [(ticks / 100).toFixed(2), String(qty)]),
  { maxLength: 8 },
);

async function snapshots(
  books: readonly { asks: WireLevel[]; bids: WireLevel[] }[],
  name: string,
): Promise<{ cached: RecordedSnapshot[]; text: RecordedSnapshot[] }> {
  const file = join(tmp, `${name}.jsonl.gz`);
  const writer = new RecordingWriter({ out: file, market: btcUsdtWireMarket(), source: 'test' });
  books.forEach((b, i) => writer.write({ type: 'book', t: 1_700_000_000_000 + i * 1000, book: { ticker_id: 'BTC_USDT', timestamp: 1_700_000_000 + i, ...b } }));
  await writer.close();
  const cache = { dir: join(tmp, `cache-${name}`) };
  expect((await buildRecordingCache(file, { ...cache, force: true })).status).toBe('built');
  const read = async (c: { dir: string } | { dir: false }): Promise<RecordedSnapshot[]> => {
    const feed = new DataFeed({ files: [file], cache: c });
    const out: RecordedSnapshot[] = [];
    for (let e = await feed.next(); e !== undefined; e = await feed.next()) if (e.kind === 'book') out.push(e.snapshot);
    expect(feed.sources).toEqual([c.dir === false ? 'text' : 'cache']);
    return out;
  };
  return { cached: await read(cache), text: await read({ dir: false }) };
}

describe("the fill model's level scans over the cache's columns (levelIndexAt, levelsAtOrThrough)", () => {
  it('property (seeded): answer what the level-by-level scans answer, on the cached snapshot and on the text one, for any price, sorted or not', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ asks: side, bids: side }), { minLength: 1, maxLength: 30 }), async (books) => {
        const { cached, text } = await snapshots(books, `r${run++}`);
        expect(cached.length).toBe(books.length);
        for (let k = 0; k < cached.length; k++) {
          const c = cached[k]!;
          for (const s of SIDES) {
            for (let ticks = 9_988; ticks <= 10_012; ticks++) {
              const scanned = [RecordedSnapshot.prototype.levelIndexAt.call(c, s, ticks), RecordedSnapshot.prototype.levelsAtOrThrough.call(c, s, ticks)];
              expect([c.levelIndexAt(s, ticks), c.levelsAtOrThrough(s, ticks)]).toEqual(scanned);
              expect([text[k]!.levelIndexAt(s, ticks), text[k]!.levelsAtOrThrough(s, ticks)]).toEqual(scanned);
            }
          }
        }
      }),
      { seed: 27, numRuns: 25 },
    );
  });
});
