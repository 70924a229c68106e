import fc from 'fast-check';
import { firstValueFrom, from, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { OrderBook } from '../../src/model/book.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import { saneBooks, type HeldBook } from '../../src/streams/sane-books.js';
import type { WireLevel } from '../../src/venue/wire.js';

/** A level's price or amount: mostly positive, now and then zero (what the sanity check must find wherever it is). */
const value = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 5_000_000 }).map((n) => (n / 100).toFixed(2)) },
  { weight: 1, arbitrary: fc.constant('0') },
  { weight: 1, arbitrary: fc.constant('0.00') },
);
const side = fc.array(
  fc.tuple(value, value).map(([p, a]): WireLevel => [p, a]),
  { maxLength: 6 },
);
const limit = fc.integer({ min: 1, max: 7 });

/** What the check decided of each book: passed, or held with its reason and message. */
async function decisions(books: readonly OrderBook[]): Promise<string[]> {
  const held: HeldBook[] = [];
  const out: string[] = [];
  const passed = new Set(await firstValueFrom(from(books).pipe(saneBooks({ onHeld: (h) => held.push(h) }), toArray())));
  for (const b of books) {
    const h = held.find((x) => x.book === b);
    out.push(passed.has(b) ? 'passed' : h === undefined ? 'dropped' : `${h.reason}: ${h.message}`);
  }
  return out;
}

describe('saneBooks reads a book through its level reader exactly as through its arrays', () => {
  it('property (seeded): a snapshot book and a plain copy of its arrays are held and passed alike, with the same messages', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(side, side, limit), { minLength: 1, maxLength: 6 }), async (snapshots) => {
        const viewed = snapshots.map(([asks, bids, n], i) =>
          new RecordedSnapshot(1000 * i, { ticker_id: 'BTC_USDT', timestamp: i, asks, bids }, 100).toOrderBook('BTC_USDT', n),
        );
        // the same book as a live one: plain arrays, no reader
        const plain = viewed.map((b): OrderBook => ({ market: b.market, timestamp: b.timestamp, asks: [...b.asks], bids: [...b.bids] }));
        expect(await decisions(viewed)).toEqual(await decisions(plain));
      }),
      { seed: 27, numRuns: 300 },
    );
  });
});
