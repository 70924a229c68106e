import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Deal } from '../../src/model/order.js';
import { DealTracker } from '../../src/streams/deal-tracker.js';
import { makeDeal } from './fake-api.js';

describe('DealTracker', () => {
  it('property: every deal is reported exactly once, in time order, whatever the paging and the arrivals during paging', async () => {
    // A step is either "k deals arrive" or "poll, with j deals arriving between two page fetches".
    const step = fc.oneof(
      fc.record({ kind: fc.constant('arrive' as const), k: fc.integer({ min: 0, max: 12 }) }),
      fc.record({ kind: fc.constant('poll' as const), during: fc.integer({ min: 0, max: 4 }) }),
    );
    await fc.assert(
      // `frozen`: pages are served as the backtest venue serves them, the same frozen array while nothing arrived
      fc.asyncProperty(
        fc.array(step, { maxLength: 25 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        async (steps, pageSize, retainSeconds, frozen) => {
          const history: Deal[] = []; // newest first
          let nextId = 1;
          let clock = 0;
          const arrive = (k: number) => {
            for (let i = 0; i < k; i++) {
              clock += nextId % 3 === 0 ? 0 : 1; // some deals share a time
              history.unshift(makeDeal(nextId++, clock));
            }
          };
          const tracker = new DealTracker({ pageSize, retainSeconds, maxPages: 1000 });
          const reported: Deal[] = [];
          const served = new Map<string, readonly Deal[]>();
          const pageOf = (offset: number, limit: number): readonly Deal[] => {
            if (!frozen) return history.slice(offset, offset + limit);
            const key = `${history.length}:${offset}:${limit}`;
            let page = served.get(key);
            if (page === undefined) served.set(key, (page = Object.freeze(history.slice(offset, offset + limit))));
            return page;
          };
          const pollOnce = async (during: number) => {
            let injected = false;
            const found = await tracker.fetchNew(async (offset, limit) => {
              const page = pageOf(offset, limit);
              if (!injected && offset > 0) {
                injected = true;
                arrive(during);
              }
              return page;
            });
            for (let i = 1; i < found.length; i++) {
              const a = found[i - 1]!;
              const b = found[i]!;
              expect(a.time < b.time || (a.time === b.time && a.id < b.id)).toBe(true);
            }
            reported.push(...found);
          };
          for (const s of steps) {
            if (s.kind === 'arrive') arrive(s.k);
            else await pollOnce(s.during);
          }
          await pollOnce(0); // a final quiet poll catches what arrived last
          const ids = reported.map((d) => d.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect([...ids].sort((a, b) => a - b)).toEqual(history.map((d) => d.id).sort((a, b) => a - b));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stops paging at the first deal it already reported', async () => {
    const history = Array.from({ length: 10 }, (_, i) => makeDeal(10 - i, 10 - i));
    const tracker = new DealTracker({ pageSize: 3 });
    let pages = 0;
    const fetch = async (offset: number, limit: number) => {
      pages += 1;
      return history.slice(offset, offset + limit);
    };
    expect((await tracker.fetchNew(fetch)).map((d) => d.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pages).toBe(4);
    pages = 0;
    history.unshift(makeDeal(11, 11));
    expect((await tracker.fetchNew(fetch)).map((d) => d.id)).toEqual([11]);
    expect(pages).toBe(1);
  });

  it('reads a page again unless it is the very frozen page it read last (a live venue sends a new array each time)', async () => {
    const tracker = new DealTracker({ pageSize: 5 });
    const first = Object.freeze([makeDeal(2, 2), makeDeal(1, 1)]);
    expect((await tracker.fetchNew(async () => first)).map((d) => d.id)).toEqual([1, 2]);
    // the same frozen array: nothing new
    expect(await tracker.fetchNew(async () => first)).toEqual([]);
    // an equal-looking but new array is read in full: deal 0, newer than the watermark and unseen, is found below
    // a deal already reported, as a venue that shows a deal late would list it
    const late = [makeDeal(2, 2), makeDeal(0, 1.5)];
    expect((await tracker.fetchNew(async () => late)).map((d) => d.id)).toEqual([0]);
    // an unfrozen page is never taken for the last one, even when it is the same array
    late.push(makeDeal(-1, 1.2));
    expect((await tracker.fetchNew(async () => late)).map((d) => d.id)).toEqual([-1]);
  });
});
