import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillStep, initialQueue, type FillAssumption, type TickTrade } from '../../src/fill-model/fill-model.js';
import { D, ZERO } from '../../src/model/decimal.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import type { WireLevel } from '../../src/venue/wire.js';

/** A snapshot from {price: qty} maps (prices with 2 decimals). */
function snap(t: number, bids: Record<string, string>, asks: Record<string, string>): RecordedSnapshot {
  const side = (m: Record<string, string>, desc: boolean): WireLevel[] =>
    Object.entries(m)
      .sort((a, b) => (desc ? Number(b[0]) - Number(a[0]) : Number(a[0]) - Number(b[0])))
      .map(([p, q]) => [p, q]);
  return new RecordedSnapshot(t, { ticker_id: 'X_Y', timestamp: Math.floor(t / 1000), bids: side(bids, true), asks: side(asks, false) }, 100);
}

const P = 10000; // 100.00 in ticks
const step = (
  assumption: FillAssumption,
  before: RecordedSnapshot,
  after: RecordedSnapshot,
  opts: { left?: string; trades?: TickTrade[]; hasTrades?: boolean } = {},
) =>
  fillStep({
    side: 'buy',
    priceTicks: P,
    left: D(opts.left ?? '1'),
    state: initialQueue(before, 'buy', P),
    before,
    after,
    trades: opts.trades ?? [],
    hasTrades: opts.hasTrades ?? false,
    assumption,
  });

describe('fill model (resting buy at 100.00)', () => {
  const s0 = snap(0, { '100.00': '2', '99.99': '5' }, { '100.01': '3' });

  it('joins the back of the queue: quantity displayed at its price on arrival', () => {
    expect(initialQueue(s0, 'buy', P).queueAhead.toFixed()).toBe('2');
    expect(initialQueue(s0, 'sell', 10002).queueAhead.toFixed()).toBe('0');
  });

  it('a queue decrease fills only the optimistic side, and only beyond the queue ahead', () => {
    const s1 = snap(1000, { '100.00': '0.5', '99.99': '5' }, { '100.01': '3' });
    expect(step('optimistic', s0, s1).fill.toFixed()).toBe('0'); // 1.5 traded, 2 ahead of us
    const s2 = snap(1000, { '99.99': '5' }, { '100.01': '3' });
    expect(step('optimistic', s0, s2).fill.toFixed()).toBe('0');
    expect(step('optimistic', s0, s2, { left: '1' }).state.queueAhead.toFixed()).toBe('0');
    expect(step('pessimistic', s0, s1).fill.toFixed()).toBe('0');
  });

  it('the optimistic side fills the excess of a decrease over the queue (partial fill)', () => {
    const before = snap(0, { '100.00': '3' }, { '100.01': '3' });
    const state = { queueAhead: D('1'), throughSeen: ZERO };
    const after = snap(1000, { '100.00': '1.5' }, { '100.01': '3' });
    const r = fillStep({ side: 'buy', priceTicks: P, left: D('1'), state, before, after, trades: [], hasTrades: false, assumption: 'optimistic' });
    expect(r.fill.toFixed()).toBe('0.5');
    expect(r.state.queueAhead.toFixed()).toBe('0');
  });

  it('the book trading through the price: optimistic fills all, pessimistic the resting through-quantity', () => {
    const s1 = snap(1000, { '99.98': '1' }, { '99.99': '0.3', '100.00': '0.2', '100.01': '3' });
    expect(step('optimistic', s0, s1).fill.toFixed()).toBe('1');
    expect(step('pessimistic', s0, s1).fill.toFixed()).toBe('0.5');
    expect(step('pessimistic', s0, s1, { left: '0.4' }).fill.toFixed()).toBe('0.4');
  });

  it('recorded trades raise the pessimistic bound and cap the optimistic one', () => {
    const s1 = snap(1000, { '100.00': '0.5', '99.99': '5' }, { '100.01': '3' });
    const at = (amount: string): TickTrade => ({ t: 500, priceTicks: P, amount: D(amount), takerSide: 'sell' });
    // 2.6 sold at 100.00: 2 ahead of us, so 0.6 reaches us in both bounds
    expect(step('pessimistic', s0, s1, { trades: [at('2.6')], hasTrades: true }).fill.toFixed()).toBe('0.6');
    expect(step('optimistic', s0, s1, { trades: [at('2.6')], hasTrades: true }).fill.toFixed()).toBe('0.6');
    // no trade at all: the decrease was cancellations, assumed ahead of us (optimistic) but nothing traded
    expect(step('optimistic', s0, s1, { trades: [], hasTrades: true }).fill.toFixed()).toBe('0');
    // a sell through our price proves we were consumed: full in the optimistic bound, the volume in the pessimistic one
    const through: TickTrade = { t: 500, priceTicks: P - 1, amount: D('0.25'), takerSide: 'sell' };
    expect(step('optimistic', s0, s1, { trades: [through], hasTrades: true }).fill.toFixed()).toBe('1');
    expect(step('pessimistic', s0, s1, { trades: [through], hasTrades: true }).fill.toFixed()).toBe('0.25');
    // buy-aggressor trades are no evidence for a resting buy
    expect(step('pessimistic', s0, s1, { trades: [{ ...through, takerSide: 'buy' }], hasTrades: true }).fill.toFixed()).toBe('0');
  });

  it('does not count the same resting through-quantity twice (pessimistic)', () => {
    const s1 = snap(1000, { '99.98': '1' }, { '100.00': '0.2', '100.01': '3' });
    const first = fillStep({
      side: 'buy',
      priceTicks: P,
      left: D('1'),
      state: initialQueue(s0, 'buy', P),
      before: s0,
      after: s1,
      trades: [],
      hasTrades: false,
      assumption: 'pessimistic',
    });
    expect(first.fill.toFixed()).toBe('0.2');
    const again = fillStep({
      side: 'buy',
      priceTicks: P,
      left: D('0.8'),
      state: first.state,
      before: s1,
      after: s1,
      trades: [],
      hasTrades: false,
      assumption: 'pessimistic',
    });
    expect(again.fill.toFixed()).toBe('0');
  });

  it('property: fills stay within [0, left], pessimistic <= optimistic, the queue stays within [0, displayed]', () => {
    const qty = fc.integer({ min: 0, max: 500 }).map((n) => (n / 100).toFixed(2));
    const book = fc.record({ bidAt: qty, bidBelow: qty, askAt: qty, askAbove: qty, askBelow: qty });
    fc.assert(
      fc.property(
        book,
        book,
        fc.integer({ min: 1, max: 400 }),
        fc.array(fc.record({ dp: fc.integer({ min: -2, max: 2 }), a: fc.integer({ min: 1, max: 300 }), sell: fc.boolean() }), { maxLength: 5 }),
        fc.boolean(),
        (b0, b1, left100, trs, hasTrades) => {
          const mk = (b: typeof b0, t: number, crossed: boolean): RecordedSnapshot => {
            const bids: Record<string, string> = {};
            const asks: Record<string, string> = {};
            if (!crossed && Number(b.bidAt) > 0) bids['100.00'] = b.bidAt;
            if (Number(b.bidBelow) > 0) bids['99.90'] = b.bidBelow;
            if (Number(b.askAbove) > 0) asks['100.10'] = b.askAbove;
            if (crossed && Number(b.askAt) > 0) asks['100.00'] = b.askAt;
            if (crossed && Number(b.askBelow) > 0) asks['99.95'] = b.askBelow;
            return snap(t, bids, asks);
          };
          const before = mk(b0, 0, false);
          const after = mk(b1, 1000, Number(b1.askAt) > 2);
          const trades: TickTrade[] = trs.map((x) => ({ t: 500, priceTicks: P + x.dp, amount: D(x.a).div(100), takerSide: x.sell ? 'sell' : 'buy' }));
          const left = D(left100).div(100);
          const args = {
            side: 'buy' as const,
            priceTicks: P,
            left,
            state: initialQueue(before, 'buy', P),
            before,
            after,
            trades: hasTrades ? trades : [],
            hasTrades,
          };
          const opt = fillStep({ ...args, assumption: 'optimistic' });
          const pes = fillStep({ ...args, assumption: 'pessimistic' });
          for (const r of [opt, pes]) {
            expect(r.fill.gte(0) && r.fill.lte(left)).toBe(true);
            expect(r.state.queueAhead.gte(0)).toBe(true);
          }
          expect(pes.fill.lte(opt.fill)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
