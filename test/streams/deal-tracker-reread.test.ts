import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';
import { DealTracker } from '../../src/streams/deal-tracker.js';
import { makeDeal } from './fake-api.js';

/** The ids a tracker still holds (its memory: what the pruning drops has no other trace), and its watermark. */
const inside = (t: DealTracker) => t as unknown as { seen: Map<number, number>; watermark: number };
const seenIds = (t: DealTracker): number[] => [...inside(t).seen.keys()].sort((a, b) => a - b);

describe("DealTracker: pages handed out again (the backtest venue) read as a live venue's new pages", () => {
  it('property (seeded): the same deals reported, and the same ids kept, as a tracker given a copy of every page', async () => {
    // Arrivals with times that mostly rise (some late: older than deals before them), some malformed (a negative
    // fee: re-reported while listed), some known from the start (a journal's); polls between them.
    const arrival = fc.record({
      dt: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 3 }), weight: 4 }, { arbitrary: fc.integer({ min: -6, max: -1 }), weight: 1 }),
      malformed: fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 }),
      known: fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 }),
      // listed late: below the newest few deals instead of on top (a page is then no longer the old one shifted)
      below: fc.oneof({ arbitrary: fc.constant(0), weight: 6 }, { arbitrary: fc.integer({ min: 1, max: 4 }), weight: 1 }),
    });
    const step = fc.oneof(fc.array(arrival, { minLength: 1, maxLength: 6 }), fc.constant('poll' as const));
    let rereads = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 30 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: -5, max: 5 }),
        async (steps, pageSize, retainSeconds, since) => {
          const history: Deal[] = []; // newest first, the venue's own objects
          let clock = 10;
          let nextId = 1;
          const knownIds: number[] = [];
          const script = steps.map((s) => {
            if (s === 'poll') return s;
            return s.map((a) => {
              clock += a.dt;
              const id = nextId++;
              if (a.known) knownIds.push(id);
              const d = makeDeal(id, clock);
              return { deal: a.malformed ? { ...d, fee: D('-0.0001') } : d, below: a.below };
            });
          });
          const options = { pageSize, retainSeconds, maxPages: 1000, since, knownIds };
          const reused = new DealTracker(options);
          const copied = new DealTracker(options);
          // the backtest venue's way: the same frozen page while nothing arrived, a first page of the new deals then
          // the page before (the same objects) after arrivals
          const served = new Map<string, readonly Deal[]>();
          const frozenPage = (offset: number, limit: number): readonly Deal[] => {
            const key = `${history.length}:${offset}:${limit}`;
            let page = served.get(key);
            if (page === undefined) served.set(key, (page = Object.freeze(history.slice(offset, offset + limit))));
            return page;
          };
          // a live venue's way: a new array of new objects every time
          const copiedPage = (offset: number, limit: number): readonly Deal[] => history.slice(offset, offset + limit).map((d) => ({ ...d }));
          const reported = new Map<number, Deal>();
          const poll = async () => {
            const a = await reused.fetchNew(async (o, l) => frozenPage(o, l));
            const b = await copied.fetchNew(async (o, l) => copiedPage(o, l));
            expect(a.map((d) => d.id)).toEqual(b.map((d) => d.id));
            for (const d of a) reported.set(d.id, d);
            // the ids kept are those reported (not malformed) since the watermark (older ones are known by their time)
            const w = inside(reused).watermark;
            const expected = [...reported.values()].filter((d) => d.fee.isPositive() && d.time >= w).map((d) => d.id);
            expect(seenIds(reused)).toEqual(expected.sort((x, y) => x - y));
            expect(seenIds(copied)).toEqual(seenIds(reused));
            if (history.length > 0) rereads += 1;
          };
          for (const s of script) {
            if (s === 'poll') await poll();
            else for (const a of s) history.splice(Math.min(a.below, history.length), 0, a.deal);
          }
          await poll();
          for (const d of history) expect(reused.isKnown(d)).toBe(copied.isKnown(d));
        },
      ),
      { numRuns: 3000, seed: 33 },
    );
    expect(rereads).toBeGreaterThan(500);
  });
});
