import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { RecordedSnapshot, type BookSideName } from '../../src/recording/recording-format.js';
import type { WireLevel } from '../../src/venue/wire.js';
import { recordAndCache } from './cached-recording.js';

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
  const read = await recordAndCache(tmp, books, name);
  return { cached: await read(true), text: await read(false) };
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
