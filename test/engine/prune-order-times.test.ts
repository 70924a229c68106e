import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ordersInWindow, pruneOrderTimes } from '../../src/engine/risk-limits.js';

describe('pruneOrderTimes', () => {
  it('drops exactly the times out of the window, in place, for times appended in order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200_000 })), fc.integer({ min: 0, max: 300_000 }), (raw, nowMs) => {
        const times = [...raw].sort((a, b) => a - b);
        const same = times;
        pruneOrderTimes(times, nowMs);
        expect(times).toBe(same);
        expect(times).toEqual([...raw].sort((a, b) => a - b).filter((t) => t > nowMs - 60_000));
      }),
    );
  });

  it('keeps the count the risk check sees, whatever the order of the times', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200_000 })), fc.integer({ min: 0, max: 300_000 }), (raw, nowMs) => {
        const times = [...raw];
        pruneOrderTimes(times, nowMs);
        expect(ordersInWindow(times, nowMs)).toBe(ordersInWindow(raw, nowMs));
      }),
    );
  });
});
