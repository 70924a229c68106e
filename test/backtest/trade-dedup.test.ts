import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PublicTrade } from '../../src/model/book.js';
import { D } from '../../src/model/decimal.js';
import { TradeDeduper } from '../../src/streams/trade-dedup.js';

/**
 * Properties of the recorder's trade de-duplication (src/streams/trade-dedup.ts) over a model venue: a stream
 * of trades with increasing ids (not contiguous) and whole-second timestamps (many equal), polled as "the last
 * 100, newest first" at random points.
 */
const PAGE = 100;

interface Tape {
  readonly trades: PublicTrade[];
}

const tapeArb = fc
  .array(fc.record({ idStep: fc.integer({ min: 1, max: 5 }), dtSec: fc.constantFrom(0, 0, 0, 1, 2) }), { minLength: 1, maxLength: 600 })
  .map((steps): Tape => {
    let id = 1000;
    let sec = 1_700_000_000;
    const trades = steps.map((s, i): PublicTrade => {
      id += s.idStep;
      sec += s.dtSec;
      return { market: 'BTC_USDT', id, time: sec * 1000, price: D(100 + (i % 7)), amount: D('0.01'), value: D(1), takerSide: i % 2 === 0 ? 'buy' : 'sell' };
    });
    return { trades };
  });

/** The page a poll at stream position `p` (trades [0, p) have happened) answers: newest first, at most 100. */
function page(tape: Tape, p: number): PublicTrade[] {
  return tape.trades.slice(Math.max(0, p - PAGE), p).reverse();
}

/** Poll positions: increasing, each at most `maxStep` after the previous one, ending at the tape's end. */
function pollsArb(tape: Tape, maxStep: number): fc.Arbitrary<number[]> {
  return fc.array(fc.integer({ min: 0, max: maxStep }), { minLength: 1, maxLength: 200 }).map((steps) => {
    const out: number[] = [];
    let p = 0;
    for (const s of steps) {
      p = Math.min(tape.trades.length, p + s);
      out.push(p);
    }
    if (p < tape.trades.length)
      for (let q = p + maxStep; ; q += maxStep) {
        out.push(Math.min(q, tape.trades.length));
        if (q >= tape.trades.length) break;
      }
    return out;
  });
}

const ids = (ts: readonly PublicTrade[]): number[] => ts.map((t) => t.id);

describe('trade de-duplication (property-based)', () => {
  it('overlapping polls (fewer than 100 new trades between two): every trade written exactly once, in id order, no gap reported', () => {
    fc.assert(
      fc.property(
        tapeArb.chain((tape) => fc.tuple(fc.constant(tape), pollsArb(tape, PAGE - 1))),
        ([tape, polls]) => {
          const d = new TradeDeduper();
          const written: PublicTrade[] = [];
          for (const p of polls) {
            const step = d.accept(page(tape, p));
            expect(step.gap).toBe(false);
            written.push(...step.fresh);
          }
          expect(ids(written)).toEqual(ids(tape.trades));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('equal timestamps: trades sharing a second are told apart by id, never merged or dropped', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 250 }), fc.integer({ min: 1, max: PAGE }), (n, stride) => {
        const trades: PublicTrade[] = Array.from({ length: n }, (_, i) => ({
          market: 'M',
          id: 10 + i,
          time: 5000,
          price: D(1),
          amount: D(1),
          value: D(1),
          takerSide: 'buy',
        }));
        const d = new TradeDeduper();
        const written: number[] = [];
        for (let p = stride; ; p += stride) {
          written.push(...ids(d.accept(page({ trades }, Math.min(p, n))).fresh));
          if (p >= n) break;
        }
        expect(written).toEqual(ids(trades));
      }),
    );
  });

  it('out-of-order pages (a newer page answered before an older one) and shuffled pages: each trade once, nothing lost', () => {
    fc.assert(
      fc.property(
        tapeArb.chain((tape) => fc.tuple(fc.constant(tape), pollsArb(tape, PAGE - 1), fc.integer({ min: 0, max: 2 ** 31 - 1 }))),
        ([tape, polls, seed]) => {
          // swap neighbouring polls by a seeded rule and shuffle inside each page
          let s = seed;
          const rnd = (): number => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
          const order = [...polls];
          for (let i = 0; i + 1 < order.length; i += 2) if (rnd() < 0.5) [order[i], order[i + 1]] = [order[i + 1]!, order[i]!];
          const d = new TradeDeduper();
          const written: number[] = [];
          for (const p of order) {
            const pg = page(tape, p).sort(() => rnd() - 0.5);
            const fresh = ids(d.accept(pg).fresh);
            expect(fresh).toEqual([...fresh].sort((a, b) => a - b));
            written.push(...fresh);
          }
          expect(new Set(written).size).toBe(written.length);
          expect([...written].sort((a, b) => a - b)).toEqual(ids(tape.trades));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a restart mid-stream (the new deduper knows the ids of the file tail): nothing written twice, nothing lost', () => {
    fc.assert(
      fc.property(
        tapeArb.chain((tape) => fc.tuple(fc.constant(tape), pollsArb(tape, PAGE - 1), fc.nat(), fc.integer({ min: PAGE, max: 400 }))),
        ([tape, polls, cut, tail]) => {
          const restartAt = cut % polls.length;
          let d = new TradeDeduper();
          const written: number[] = [];
          polls.forEach((p, i) => {
            // the resumed recorder reads the last `tail` trade ids from the file (at least a page's worth)
            if (i === restartAt) d = new TradeDeduper(written.slice(-tail));
            written.push(...ids(d.accept(page(tape, p)).fresh));
          });
          expect(written).toEqual(ids(tape.trades));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('polls a page or more apart: a possible gap is reported exactly when the page does not reach back to a known trade', () => {
    fc.assert(
      fc.property(
        tapeArb.chain((tape) => fc.tuple(fc.constant(tape), pollsArb(tape, 3 * PAGE))),
        ([tape, polls]) => {
          const d = new TradeDeduper();
          const written = new Set<number>();
          let prev = 0;
          for (const p of polls) {
            const step = d.accept(page(tape, p));
            // 100 new trades or more: the full page cannot show whether trades were missed (>100) or not (=100)
            const unproven = prev > 0 && p - prev >= PAGE;
            expect(step.gap).toBe(unproven);
            for (const id of ids(step.fresh)) {
              expect(written.has(id)).toBe(false);
              written.add(id);
            }
            prev = p;
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gap at the edges: 99 new trades overlap, 100 and 101 cannot be told apart and are both reported', () => {
    const trades: PublicTrade[] = Array.from({ length: 400 }, (_, i) => ({
      market: 'M',
      id: 7 + 3 * i,
      time: 0,
      price: D(1),
      amount: D(1),
      value: D(1),
      takerSide: 'buy',
    }));
    for (const [step, gap] of [
      [99, false],
      [100, true],
      [101, true],
    ] as const) {
      const d = new TradeDeduper();
      expect(d.accept(page({ trades }, 50)).gap).toBe(false);
      const next = d.accept(page({ trades }, 50 + step));
      expect(next.gap).toBe(gap);
      expect(next.fresh).toHaveLength(Math.min(step, PAGE));
    }
  });

  it('bounded memory: ids older than the remembered window are not written again', () => {
    const trades: PublicTrade[] = Array.from({ length: 1000 }, (_, i) => ({
      market: 'M',
      id: i + 1,
      time: i,
      price: D(1),
      amount: D(1),
      value: D(1),
      takerSide: 'sell',
    }));
    const d = new TradeDeduper([], { memory: 300 });
    for (let p = 50; p <= 1000; p += 50) d.accept(page({ trades }, p));
    expect(d.size).toBeLessThanOrEqual(300);
    // a stale page from long ago repeats nothing
    expect(d.accept(page({ trades }, 100)).fresh).toEqual([]);
  });
});
