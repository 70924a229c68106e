import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WindowBucket } from '../../src/venue/window-bucket.js';

describe('WindowBucket', () => {
  it('holds a slot from admission until a window after completion', () => {
    const b = new WindowBucket(2, 1000);
    b.admit();
    b.admit();
    expect(b.freeAt(0)).toBeUndefined(); // both in flight: the next completion decides
    b.complete(100);
    expect(b.freeAt(100)).toBe(1100);
    b.complete(300);
    expect(b.count(1099)).toBe(2);
    expect(b.freeAt(1100)).toBe(1100);
    expect(b.count(1300)).toBe(0);
  });

  it('rejects nonsense limits', () => {
    expect(() => new WindowBucket(0, 1000)).toThrow(/positive integer/);
    expect(() => new WindowBucket(1, 0)).toThrow(/> 0/);
  });

  it('admitting only at freeAt never puts more than `limit` arrivals in any window at the server (property)', () => {
    // latency: each request arrives somewhere between its admission and its completion
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 400 }), lat: fc.integer({ min: 0, max: 300 }), at: fc.double({ min: 0, max: 1, noNaN: true }) }), {
          minLength: 1,
          maxLength: 60,
        }),
        (limit, reqs) => {
          const W = 1000;
          const b = new WindowBucket(limit, W);
          const inflight: { end: number }[] = [];
          const arrivals: number[] = [];
          let now = 0;
          const settle = (until: number): void => {
            inflight.sort((x, y) => x.end - y.end);
            while (inflight.length > 0 && (inflight[0] as { end: number }).end <= until) {
              const r = inflight.shift() as { end: number };
              b.complete(r.end);
            }
          };
          for (const r of reqs) {
            now += r.gap;
            settle(now);
            for (;;) {
              const free = b.freeAt(now);
              if (free === now) break;
              const earliest: number | undefined = inflight.map((x) => x.end).sort((x, y) => x - y)[0];
              if (free === undefined && earliest === undefined) throw new Error('no capacity and nothing in flight');
              const next = free ?? earliest!;
              now = Math.max(now, next);
              settle(now);
            }
            b.admit();
            inflight.push({ end: now + r.lat });
            arrivals.push(now + r.lat * r.at);
          }
          arrivals.sort((x, y) => x - y);
          for (let i = 0, j = 0; i < arrivals.length; i++) {
            while ((arrivals[i] as number) - (arrivals[j] as number) >= W) j++;
            expect(i - j + 1).toBeLessThanOrEqual(limit);
          }
        },
      ),
    );
  });

  it('freeAt and count give what the plain sliding log gives, whenever it prunes (property, seeded)', () => {
    // the plain log: every completion kept, the count and the earliest room worked out from all of them on each ask
    const plainFreeAt = (limit: number, windowMs: number, inFlight: number, done: readonly number[], now: number): number | undefined => {
      const live = done.filter((d) => d > now - windowMs);
      const excess = inFlight + live.length - limit + 1;
      if (excess <= 0) return now;
      if (excess > live.length) return undefined;
      return live[excess - 1]! + windowMs;
    };
    const step = fc.oneof(
      fc.record({ op: fc.constant('admit' as const) }),
      fc.record({ op: fc.constant('complete' as const), gap: fc.integer({ min: 0, max: 300 }) }),
      fc.record({ op: fc.constant('ask' as const), gap: fc.integer({ min: 0, max: 300 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 1000 }), fc.array(step, { maxLength: 200 }), (limit, windowMs, steps) => {
        const b = new WindowBucket(limit, windowMs);
        let now = 0;
        let inFlight = 0;
        const done: number[] = [];
        for (const s of steps) {
          if (s.op === 'admit') {
            b.admit();
            inFlight += 1;
            continue;
          }
          now += s.gap;
          if (s.op === 'complete') {
            if (inFlight === 0) continue;
            b.complete(now);
            inFlight -= 1;
            done.push(now);
            continue;
          }
          expect(b.freeAt(now)).toBe(plainFreeAt(limit, windowMs, inFlight, done, now));
          expect(b.count(now)).toBe(inFlight + done.filter((d) => d > now - windowMs).length);
        }
      }),
      { seed: 2733, numRuns: 300 },
    );
  });
});
