import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientIdIndex, seqOf } from '../../backtest/replay/client-id-index.js';

/**
 * Ids near the index's cases: the engine's (`<head><base-36 counter>`), heads that start one another (`mm-`,
 * `mm-x-`), more heads than it keeps by counter, tails with a leading zero, upper case, a dash, none at all, and
 * counters around the limit of the ones kept by index.
 */
const head = fc.constantFrom('mm-', 'mm-x-', 'mm-x-y-', 'a-', 'b-', 'c-', 'd-', 'e-', '-', '');
const tail = fc.oneof(
  fc.integer({ min: 0, max: 40 }).map((n) => n.toString(36)),
  fc.constantFrom('0', '00', '01', '001', 'A', '1A', 'x-1', 'x', '-', '', 'zzzz', '100000', 'mh9c', 'mh9b', 'mh9d'),
  fc.integer({ min: (1 << 20) - 3, max: (1 << 20) + 3 }).map((n) => n.toString(36)),
);
const id = fc.tuple(head, tail).map(([h, t]) => h + t);

describe('ClientIdIndex', () => {
  it('property (seeded): answers get and has as a Map of the same sets does, whatever ids were set before', () => {
    const op = fc.record({ set: fc.boolean(), id, value: fc.integer({ min: 1, max: 3 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const index = new ClientIdIndex<number>();
        const map = new Map<string, number>();
        for (const o of ops) {
          if (o.set) {
            index.set(o.id, o.value);
            map.set(o.id, o.value);
          } else {
            expect(index.get(o.id)).toBe(map.get(o.id));
            expect(index.has(o.id)).toBe(map.has(o.id));
          }
        }
        for (const k of map.keys()) expect(index.get(k)).toBe(map.get(k));
      }),
      { numRuns: 2000, seed: 27 },
    );
  });

  it('reads a canonical base-36 counter only (no leading zero, lower case), below the limit', () => {
    expect(seqOf('mm-lz3k9q1c-1f', 12)).toBe(51);
    expect(seqOf('mm-0', 3)).toBe(0);
    expect(seqOf('mm-01', 3)).toBe(-1);
    expect(seqOf('mm-1F', 3)).toBe(-1);
    expect(seqOf('mm-', 3)).toBe(-1);
    expect(seqOf('mm-' + ((1 << 20) - 1).toString(36), 3)).toBe((1 << 20) - 1);
    expect(seqOf('mm-' + (1 << 20).toString(36), 3)).toBe(-1);
  });
});
