import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RateWindow } from '../../src/sim/http/rate-window.js';
import { SimStats } from '../../src/sim/http/sim-stats.js';

describe('RateWindow (sliding 10 s windows per client and bucket)', () => {
  it('admits exactly the limit within a window, then refuses until the oldest slides out', () => {
    const w = new RateWindow({ orderbook: { limit: 3 } });
    expect([0, 1, 2].map((t) => w.admit('a', 'orderbook', t))).toEqual([true, true, true]);
    expect(w.admit('a', 'orderbook', 9_999)).toBe(false);
    // Another client has its own window.
    expect(w.admit('b', 'orderbook', 9_999)).toBe(true);
    // t=0 is out of [t-10000, t] only once t > 10000.
    expect(w.admit('a', 'orderbook', 10_000)).toBe(false);
    expect(w.admit('a', 'orderbook', 10_001)).toBe(true);
  });

  it('counts shared buckets: public endpoints together, main-account endpoints together', () => {
    const w = new RateWindow({ public: { limit: 2 }, mainAccount: { limit: 1 } });
    expect(w.admit('ip', 'ping', 0)).toBe(true);
    expect(w.admit('ip', 'markets', 1)).toBe(true);
    expect(w.admit('ip', 'orderbook', 2)).toBe(false);
    expect(w.admit('key', 'codes', 0)).toBe(true);
    expect(w.admit('key', 'investments', 1)).toBe(false);
    // Order endpoints share nothing with main-account ones.
    expect(w.admit('key', 'orderNew', 1)).toBe(true);
  });

  it('refused requests do not count, so admitted arrivals never exceed the limit in any window', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 20 }), (gaps, limit) => {
        const w = new RateWindow({ orderNew: { limit, windowMs: 1_000 } });
        let t = 0;
        const admitted: number[] = [];
        for (const gap of gaps) {
          t += gap;
          if (w.admit('k', 'orderNew', t)) admitted.push(t);
        }
        // A closed window [s, s + 1000] holds at most `limit` admissions.
        expect(SimStats.maxInWindow(admitted, 1_001)).toBeLessThanOrEqual(limit);
      }),
    );
  });
});

describe('SimStats.maxInWindow', () => {
  it('finds the densest window', () => {
    expect(SimStats.maxInWindow([0, 5, 9, 10, 20], 10)).toBe(3);
    expect(SimStats.maxInWindow([], 10)).toBe(0);
  });
});
