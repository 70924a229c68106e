import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/model/backoff.js';

describe('backoffDelay', () => {
  it('starts at 1 s and doubles up to 30 s without jitter', () => {
    const d = [1, 2, 3, 4, 5, 6, 7, 50].map((a) => backoffDelay(a, { jitter: 0 }));
    expect(d).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('adds jitter within the fraction and never exceeds the cap (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.double({ min: 0, max: 0.999, noNaN: true }), (attempt, r) => {
        const plain = backoffDelay(attempt, { jitter: 0 });
        const d = backoffDelay(attempt, { jitter: 0.2, random: () => r });
        expect(d).toBeGreaterThanOrEqual(plain);
        expect(d).toBeLessThanOrEqual(Math.min(30_000, plain * 1.2));
      }),
    );
  });

  it('grows by the factor it is given and holds still with factor 1; no jitter unless asked', () => {
    expect([1, 2, 3, 4].map((a) => backoffDelay(a, { baseMs: 500, maxMs: 10_000, factor: 3 }))).toEqual([500, 1500, 4500, 10_000]);
    expect([1, 2, 9].map((a) => backoffDelay(a, { baseMs: 200, maxMs: 200, factor: 1 }))).toEqual([200, 200, 200]);
    expect(backoffDelay(3, { random: () => 0.99 })).toBe(4000);
  });

  it('respects a longer Retry-After, capped', () => {
    expect(backoffDelay(1, { jitter: 0, retryAfterMs: 5000 })).toBe(5000);
    expect(backoffDelay(1, { jitter: 0, retryAfterMs: 99_000 })).toBe(30_000);
  });
});
