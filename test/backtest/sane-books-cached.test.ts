import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { firstValueFrom, from, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { OrderBook } from '../../src/model/book.js';
import { saneBooks, type HeldBook } from '../../src/streams/sane-books.js';
import type { WireLevel } from '../../src/venue/wire.js';
import { recordAndCache } from './cached-recording.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-sane-cached-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A level's price or amount: mostly positive, now and then zero (the sanity check must find it at the touch or the end). */
const value = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 5_000_000 }).map((n) => (n / 100).toFixed(2)) },
  { weight: 1, arbitrary: fc.constant('0') },
  { weight: 1, arbitrary: fc.constant('0.00') },
);
const side = fc.array(
  fc.tuple(value, value).map(([p, a]): WireLevel => [p, a]),
  { maxLength: 5 },
);

/** What the check decided of each book: passed, or held with its reason and message. */
async function decisions(books: readonly OrderBook[]): Promise<string[]> {
  const held: HeldBook[] = [];
  const passed = new Set(await firstValueFrom(from(books).pipe(saneBooks({ onHeld: (h) => held.push(h) }), toArray())));
  return books.map((b) => {
    const h = held.find((x) => x.book === b);
    return passed.has(b) ? 'passed' : h === undefined ? 'dropped' : `${h.reason}: ${h.message}`;
  });
}

async function cachedBooks(books: readonly { asks: WireLevel[]; bids: WireLevel[] }[], name: string, limit: number): Promise<OrderBook[]> {
  const read = await recordAndCache(tmp, books, name);
  return (await read(true)).map((s) => s.toOrderBook('BTC_USDT', limit));
}

describe("saneBooks on a cached book (its reader's edgesPositive) decides as on the book's arrays", () => {
  it('property (seeded): cached books and plain copies of their arrays are held and passed alike, with the same messages', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ asks: side, bids: side }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 6 }),
        async (books, limit) => {
          const cached = await cachedBooks(books, `r${run++}`, limit);
          expect(cached.length).toBe(books.length);
          // the same books as live ones: plain arrays, no reader
          const plain = cached.map((b): OrderBook => ({ market: b.market, timestamp: b.timestamp, asks: [...b.asks], bids: [...b.bids] }));
          expect(await decisions(cached)).toEqual(await decisions(plain));
        },
      ),
      { seed: 27, numRuns: 40 },
    );
  });
});
