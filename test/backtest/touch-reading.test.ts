import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { bestPrice, bestPriceEstimate, levelPositive, readerOf, sideCount, type BookSide, type TouchReading } from '../../src/model/book-levels.js';
import type { OrderBook } from '../../src/model/book.js';
import type { WireLevel } from '../../src/venue/wire.js';
import { recordAndCache } from './cached-recording.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-touch-reading-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SIDES: readonly BookSide[] = ['bids', 'asks'];

/** A level's price or amount: mostly positive, now and then zero, with a varying number of decimals. */
const value = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.integer({ min: 1, max: 50_000_000 }), fc.integer({ min: 0, max: 6 })).map(([n, d]) => (n / 10 ** d).toFixed(d)) },
  { weight: 1, arbitrary: fc.constant('0') },
);
const side = fc.array(
  fc.tuple(value, value).map(([p, a]): WireLevel => [p, a]),
  { maxLength: 5 },
);

/** The reader's one-call answer, in the form of the questions it stands for (null: not read). */
function touchOf(book: OrderBook): unknown {
  const out: TouchReading = { bids: -1, asks: -1, bidF: Number.NaN, askF: Number.NaN };
  if (!readerOf(book)!.touch(out)) return null;
  return { bids: out.bids, asks: out.asks, ...(out.bids > 0 ? { bidF: out.bidF } : {}), ...(out.asks > 0 ? { askF: out.askF } : {}) };
}

/** The same, asked one question at a time (the edges' levelPositive of both sides, then the counts and the touch's estimates). */
function askedOf(book: OrderBook): unknown {
  const edgesPositive = (s: BookSide, n = sideCount(book, s)): boolean =>
    n === 0 || (levelPositive(book, s, 0, 'price') && levelPositive(book, s, 0, 'amount') && levelPositive(book, s, n - 1, 'price'));
  if (!edgesPositive('bids') || !edgesPositive('asks')) return null;
  const [bids, asks] = SIDES.map((s) => sideCount(book, s));
  const [bidF, askF] = SIDES.map((s) => bestPriceEstimate(book, s));
  return { bids, asks, ...(bidF !== undefined ? { bidF } : {}), ...(askF !== undefined ? { askF } : {}) };
}

describe("a recorded book's touch read in one call (BookLevelReader.touch) answers as the questions it stands for", () => {
  it('property (seeded): text and cached snapshots, any limit, before and after the touch Decimals are made', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ asks: side, bids: side }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom<readonly BookSide[]>([], ['bids'], ['asks'], ['bids', 'asks']),
        async (books, limit, made) => {
          const read = await recordAndCache(tmp, books, `t${run++}`);
          for (const fromCache of [true, false]) {
            for (const snapshot of await read(fromCache)) {
              const book = snapshot.toOrderBook('BTC_USDT', limit);
              expect(touchOf(book)).toEqual(askedOf(book));
              // a strategy (or the engine) read the touch's Decimals first: the estimates are then theirs
              for (const s of made) bestPrice(book, s);
              expect(touchOf(book)).toEqual(askedOf(book));
            }
          }
        },
      ),
      { seed: 27, numRuns: 40 },
    );
  });
});
