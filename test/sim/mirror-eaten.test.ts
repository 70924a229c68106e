import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, fmt, ZERO, type Decimal } from '../../src/model/decimal.js';
import type { Side } from '../../src/model/order.js';
import { MirrorEaten } from '../../src/sim/mirror-eaten.js';

/** The rule of mirror-eaten.ts's header, checked level by level on random books (prices 95..105, whole lots of 0.01). */
const LOW = 95;
const HIGH = 105;
const lots = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 })), { minLength: HIGH - LOW + 1, maxLength: HIGH - LOW + 1 });
const levelsOf = (ls: readonly number[]): Map<string, Decimal> =>
  new Map(ls.flatMap((n, i) => (n > 0 ? [[D(LOW + i).toFixed(), D(n).div(100)] as const] : [])));

describe('mirror eaten: settle', () => {
  it('per level min(eaten, shown); at or through the reach one pool keeping min(Σ eaten, Σ shown)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Side>('buy', 'sell'),
        lots,
        lots,
        fc.option(fc.integer({ min: LOW, max: HIGH }), { nil: undefined }),
        (side, eatenLots, shownLots, reachAt) => {
          const eaten = new MirrorEaten();
          const before = levelsOf(eatenLots);
          for (const [p, q] of before) eaten.add(side, p, q);
          const shown = levelsOf(shownLots);
          const reach = reachAt === undefined ? undefined : D(reachAt);
          eaten.settle(side, shown, () => reach);
          const inPool = (p: number): boolean => reachAt !== undefined && (side === 'sell' ? p <= reachAt : p >= reachAt);
          let poolBefore = ZERO;
          let poolShown = ZERO;
          let poolAfter = ZERO;
          for (let p = LOW; p <= HIGH; p++) {
            const key = D(p).toFixed();
            const e = before.get(key) ?? ZERO;
            const a = shown.get(key) ?? ZERO;
            const after = eaten.at(side, key);
            expect(after.lte(a), `eaten ${fmt(after)} > shown ${fmt(a)} at ${p}`).toBe(true);
            expect(eaten.at(side === 'buy' ? 'sell' : 'buy', key).isZero()).toBe(true);
            if (inPool(p)) {
              poolBefore = poolBefore.add(e);
              poolShown = poolShown.add(a);
              poolAfter = poolAfter.add(after);
            } else {
              expect(fmt(after)).toBe(fmt(e.lt(a) ? e : a));
            }
          }
          expect(fmt(poolAfter)).toBe(fmt(poolBefore.lt(poolShown) ? poolBefore : poolShown));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('moves what a pool level lost to the pool’s best prices first, and never beyond the reach', () => {
    const eaten = new MirrorEaten();
    eaten.add('sell', '100', D('0.5'));
    // asks: 100 shrank to 0.1; 0.4 moves to 98 (0.3, the best) then 99 (0.1 of its 0.2); 101 is beyond the reach
    eaten.settle(
      'sell',
      new Map([
        ['98', D('0.3')],
        ['99', D('0.2')],
        ['100', D('0.1')],
        ['101', D('1')],
      ]),
      () => D('100'),
    );
    expect(['98', '99', '100', '101'].map((p) => fmt(eaten.at('sell', p)))).toEqual(['0.3', '0.1', '0.1', '0']);
    // no client order rests: a level forgets what it lost
    eaten.settle('sell', new Map([['99', D('0.2')]]), () => undefined);
    expect(['98', '99', '100'].map((p) => fmt(eaten.at('sell', p)))).toEqual(['0', '0.1', '0']);
  });
});
