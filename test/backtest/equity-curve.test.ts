import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EquityCurve, type EquityPoint } from '../../backtest/replay/equity-curve.js';

const point = fc.record({
  t: fc.integer({ min: 0, max: 2 ** 50 }),
  mid: fc.double({ noNaN: true }),
  equity: fc.double({ noNaN: true }),
  inventory: fc.double({ noNaN: true }),
});
// lengths across the first capacity (1024) and its doublings
const points = fc.integer({ min: 0, max: 5000 }).chain((n) => fc.array(point, { minLength: n, maxLength: n, size: 'max' }));

/**
 * `expect(actual).toEqual(expected)` for lists of points or numbers, with the same meaning here (each point exactly
 * its four keys, numbers by Object.is: -0 is not 0), checked in a loop first: toEqual's deep walk over the thousands
 * of points a run pushes was most of the file's CPU. It runs only when they differ, for its message.
 */
function expectSame(actual: readonly unknown[], expected: readonly unknown[]): void {
  const KEYS = ['t', 'mid', 'equity', 'inventory'] as const;
  const same = (a: unknown, b: unknown): boolean => {
    if (typeof b === 'number') return Object.is(a, b);
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
    const [pa, pb] = [a as Record<string, unknown>, b as Record<string, unknown>];
    return Object.keys(pa).length === KEYS.length && Object.keys(pb).length === KEYS.length && KEYS.every((k) => Object.is(pa[k], pb[k]));
  };
  if (actual.length !== expected.length || !actual.every((a, i) => same(a, expected[i]))) expect(actual).toEqual(expected);
}

describe('EquityCurve (columns instead of one object per point)', () => {
  it('property: reads back as the list of points pushed: length, at, iteration, columns, JSON', () => {
    fc.assert(
      fc.property(points, (list: EquityPoint[]) => {
        const c = new EquityCurve();
        for (const p of list) c.push(p.t, p.mid, p.equity, p.inventory);
        expect(c.length).toBe(list.length);
        expectSame([...c], list);
        expect(JSON.stringify(c)).toBe(JSON.stringify(list));
        expect(c.at(0)).toEqual(list[0]);
        expect(c.at(-1)).toEqual(list.at(-1));
        expect(c.at(list.length)).toBeUndefined();
        expect(c.at(-list.length - 1)).toBeUndefined();
        for (const k of ['t', 'mid', 'equity', 'inventory'] as const) {
          expectSame(
            [...c.column(k)],
            list.map((p) => p[k]),
          );
          expectSame(
            [...c.columns()[k]],
            list.map((p) => p[k]),
          );
        }
        // the columns handed out are the curve's own (a curve made of them reads the same) and own their buffers
        const again = new EquityCurve(c.columns());
        expectSame([...again], list);
        expect(c.columns().t.buffer.byteLength).toBe(8 * list.length);
        // a curve made of columns grows on from there
        again.push(1, 2, 3, 4);
        expect(again.at(-1)).toEqual({ t: 1, mid: 2, equity: 3, inventory: 4 });
        expect(again.length).toBe(list.length + 1);
      }),
      { numRuns: 60 },
    );
  });

  it('property (seeded): reads between pushes (each joins the chunks pushed since) change nothing read after', () => {
    // runs of pushes across the chunk size (4096), each followed by a read of some kind, from empty or from columns
    const op = fc.record({ pushes: fc.integer({ min: 0, max: 5000 }), read: fc.constantFrom('at', 'column', 'columns', 'length') });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.array(op, { maxLength: 6 }), (start, ops) => {
        const list: EquityPoint[] = Array.from({ length: start }, (_, i) => ({ t: i, mid: -i, equity: 2 * i, inventory: 0.5 * i }));
        const c = start === 0 ? new EquityCurve() : new EquityCurve(EquityCurve.of(list).columns());
        for (const o of ops) {
          for (let j = 0; j < o.pushes; j++) {
            const i = list.length;
            list.push({ t: i, mid: -i, equity: 2 * i, inventory: 0.5 * i });
            c.push(i, -i, 2 * i, 0.5 * i);
          }
          if (o.read === 'at') expect(c.at(-1)).toEqual(list.at(-1));
          else if (o.read === 'column') expect(c.column('mid').length).toBe(list.length);
          else if (o.read === 'columns') expect(c.columns().inventory.length).toBe(list.length);
          else expect(c.length).toBe(list.length);
        }
        for (const k of ['t', 'mid', 'equity', 'inventory'] as const)
          expectSame(
            Array.from(c.column(k)),
            list.map((p) => p[k]),
          );
      }),
      { numRuns: 40, seed: 27 },
    );
  });

  it('keeps -0 and infinities as pushed, and refuses columns of different lengths', () => {
    const c = EquityCurve.of([{ t: 1, mid: -0, equity: Number.POSITIVE_INFINITY, inventory: Number.NEGATIVE_INFINITY }]);
    expect(Object.is(c.at(0)!.mid, -0)).toBe(true);
    expect(c.at(0)!.equity).toBe(Number.POSITIVE_INFINITY);
    expect(c.at(0.5)).toBeUndefined();
    expect(() => new EquityCurve({ t: new Float64Array(2), mid: new Float64Array(2), equity: new Float64Array(1), inventory: new Float64Array(2) })).toThrow(
      RangeError,
    );
  });
});
