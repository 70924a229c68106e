import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { firstValueFrom, of, toArray } from 'rxjs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateRecording } from '../../backtest/data/generate-recording.js';
import { CachedSnapshot } from '../../backtest/data/cached-snapshot.js';
import { buildRecordingCache } from '../../backtest/data/recording-cache.js';
import { DataFeed } from '../../backtest/replay/data-feed.js';
import { bestPrice, bestPriceEstimate, isPositive, levelAmount, levelPositive, levelPrice, sideCount, type BookSide } from '../../src/model/book-levels.js';
import type { OrderBook } from '../../src/model/book.js';
import { ESTIMATE_REL_ERROR } from '../../src/model/decimal-estimate.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import { bookTouch } from '../../src/strategy/book-prices.js';
import { saneBooks } from '../../src/streams/sane-books.js';
import type { OrderBookResponse } from '../../src/venue/wire.js';
import { btcUsdtWireMarket } from '../backtest/fixtures.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-snapshot-book-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SIDES: readonly BookSide[] = ['asks', 'bids'];

/** Every level query of the book's reader against the level arrays of the same book (built after the queries). */
function expectReaderMatchesArrays(book: OrderBook): void {
  // the touch's estimate first, as the sanity check and a quoting strategy ask it (before any Decimal of it is made)
  const estimates = SIDES.map((side) => bestPriceEstimate(book, side));
  const asked = SIDES.map((side) => {
    const n = sideCount(book, side);
    return {
      n,
      best: bestPrice(book, side)?.toString(),
      levels: Array.from({ length: n + 1 }, (_, i) => [levelPrice(book, side, i)?.toString(), levelAmount(book, side, i)?.toString()]),
      positive: Array.from({ length: n }, (_, i) => [levelPositive(book, side, i, 'price'), levelPositive(book, side, i, 'amount')]),
    };
  });
  const arrays = SIDES.map((side) => {
    const levels = book[side];
    return {
      n: levels.length,
      best: levels[0]?.price.toString(),
      levels: [...levels.map((l) => [l.price.toString(), l.amount.toString()]), [undefined, undefined]],
      positive: levels.map((l) => [isPositive(l.price), isPositive(l.amount)]),
    };
  });
  expect(asked).toEqual(arrays);
  // within its bound of the price the arrays hold (undefined for an empty side)
  expect(SIDES.map((side, k) => (book[side].length === 0 ? estimates[k] === undefined : closeTo(estimates[k], book[side][0]!.price.toString())))).toEqual([
    true,
    true,
  ]);
}

/** True when `estimate` is within ESTIMATE_REL_ERROR of the value `text`. */
function closeTo(estimate: number | undefined, text: string): boolean {
  if (estimate === undefined) return false;
  const x = Number(text);
  return Math.abs(estimate - x) <= ESTIMATE_REL_ERROR * Math.abs(x);
}

const level = fc.tuple(
  fc.integer({ min: 0, max: 10_000_000 }),
  fc.integer({ min: 0, max: 6 }),
  fc.integer({ min: 0, max: 5_000_000 }),
  fc.integer({ min: 0, max: 8 }),
);
const text = (int: number, dec: number): string => (int / 10 ** dec).toFixed(dec);

describe('snapshot book (the level reader over a recorded snapshot)', () => {
  it('property (seeded): its level queries answer what its level arrays hold, for any limit', () => {
    fc.assert(
      fc.property(fc.array(level, { maxLength: 6 }), fc.array(level, { maxLength: 6 }), fc.integer({ min: 0, max: 8 }), (asks, bids, limit) => {
        const wire: OrderBookResponse = {
          ticker_id: 'BTC_USDT',
          timestamp: 1,
          asks: asks.map(([p, pd, a, ad]) => [text(p, pd), text(a, ad)]),
          bids: bids.map(([p, pd, a, ad]) => [text(p, pd), text(a, ad)]),
        };
        const book = new RecordedSnapshot(1000, wire, 100).toOrderBook('BTC_USDT', limit);
        expectReaderMatchesArrays(book);
        expect(book.asks.length).toBe(Math.min(asks.length, limit === 0 ? 100 : limit));
      }),
      { numRuns: 300 },
    );
  });

  it('a strategy reading the arrays gets them; a spread copy of the book reads its own arrays, not the reader', () => {
    const wire: OrderBookResponse = {
      ticker_id: 'BTC_USDT',
      timestamp: 1,
      asks: [
        ['100.6', '0.5'],
        ['100.7', '1'],
      ],
      bids: [
        ['100.5', '1.25'],
        ['100.4', '2'],
      ],
    };
    const book = new RecordedSnapshot(1000, wire, 100).toOrderBook('BTC_USDT', 20);
    // a strategy that reads the arrays gets them, built once
    expect(book.bids.map((l) => l.price.toString())).toEqual(['100.5', '100.4']);
    expect(book.bids).toBe(book.bids);
    // a spread copy is not the book: its levels are read from the copy's own arrays, not the original's reader
    const copy: OrderBook = { ...book, market: book.market, timestamp: book.timestamp, asks: [], bids: book.bids };
    expect(bestPrice(copy, 'asks')).toBeUndefined();
    expect(sideCount(copy, 'bids')).toBe(2);
    // as live: a plain copy, JSON and the keys show the levels (a strategy copying a book behaves the same in a backtest)
    const plain = { ...book };
    expect(plain.asks.map((l) => l.price.toString())).toEqual(['100.6', '100.7']);
    expect(Object.keys(book)).toEqual(expect.arrayContaining(['market', 'timestamp', 'asks', 'bids']));
    expect((JSON.parse(JSON.stringify(book)) as { asks: unknown[]; bids: unknown[] }).bids).toHaveLength(2);
  });

  it("the binary cache's books answer the same (positivity read off the columns' integers, zero amounts included), and the sanity check and the touch build no level arrays", async () => {
    const file = join(tmp, 'gen.jsonl.gz');
    await generateRecording({
      out: file,
      market: btcUsdtWireMarket(),
      snapshots: 300,
      intervalMs: 1000,
      startT: 1_700_000_000_000,
      startTicks: 3_000_000,
      stepTicks: 5,
      seed: 3,
      minQty: 0,
    });
    const cache = { dir: join(tmp, 'cache') };
    expect((await buildRecordingCache(file, { ...cache, force: true })).status).toBe('built');
    const feed = new DataFeed({ files: [file], cache });
    let books = 0;
    for (let e = await feed.next(); e !== undefined; e = await feed.next()) {
      if (e.kind !== 'book') continue;
      books += 1;
      if (books === 1) {
        // what the engine and a quoting strategy read of every poll: the sanity check and the touch, no level arrays
        const built = [vi.spyOn(CachedSnapshot.prototype, 'asks', 'get'), vi.spyOn(CachedSnapshot.prototype, 'bids', 'get')];
        const book = e.snapshot.toOrderBook('BTC_USDT', 20);
        const passed = await firstValueFrom(of(book).pipe(saneBooks(), toArray()));
        expect(bookTouch(book)).toBeDefined();
        expect(built.map((b) => b.mock.calls.length)).toEqual([0, 0]);
        expect(passed.length === 1 && passed[0] === book).toBe(true);
        for (const b of built) b.mockRestore();
      }
      for (const limit of [1, 3, 20]) expectReaderMatchesArrays(e.snapshot.toOrderBook('BTC_USDT', limit));
    }
    expect(feed.sources).toEqual(['cache']);
    expect(books).toBe(300);
  });
});
