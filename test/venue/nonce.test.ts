import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NonceSource } from '../../src/venue/nonce.js';

describe('NonceSource', () => {
  it('is the clock in milliseconds when the clock moves', () => {
    let t = 1_700_000_000_000;
    const n = new NonceSource({ now: () => t });
    expect(n.next()).toBe('1700000000000');
    t += 5;
    expect(n.next()).toBe('1700000000005');
  });

  it('stays strictly increasing when the clock stalls or steps back, and rejoins it', () => {
    let t = 1000;
    const n = new NonceSource({ now: () => t });
    expect([n.next(), n.next(), n.next()]).toEqual(['1000', '1001', '1002']);
    t = 500; // stepped back
    expect(n.next()).toBe('1003');
    expect(n.drift()).toBe(503);
    t = 2000;
    expect(n.next()).toBe('2000');
  });

  it('never repeats or decreases for any clock sequence (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2_000_000_000_000 }), { minLength: 1, maxLength: 200 }), (times) => {
        let i = 0;
        const n = new NonceSource({ now: () => times[Math.min(i++, times.length - 1)] as number });
        let last = -1;
        for (let k = 0; k < times.length; k++) {
          const v = Number(n.next());
          expect(v).toBeGreaterThan(last);
          expect(v).toBeGreaterThanOrEqual(times[k] as number);
          last = v;
        }
      }),
    );
  });

  it('carries the nonceWindow mode', () => {
    expect(new NonceSource().nonceWindow).toBe(false);
    expect(new NonceSource({ nonceWindow: true }).nonceWindow).toBe(true);
  });
});
