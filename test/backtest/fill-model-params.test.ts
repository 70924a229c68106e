import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillStep, initialQueue } from '../../src/fill-model/fill-model.js';
import { FillModelSchema, fillModelLine } from '../../src/fill-model/fill-model-params.js';
import { BacktestConfigSchema } from '../../backtest/backtest-config.js';
import { VirtualExchange } from '../../backtest/replay/virtual-exchange.js';
import { D, ZERO } from '../../src/model/decimal.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import type { WireLevel } from '../../src/venue/wire.js';
import { btcUsdt } from '../helpers/live-feed.js';

/** A snapshot from {price: qty} maps (prices with 2 decimals). */
function snap(t: number, bids: Record<string, string>, asks: Record<string, string>): RecordedSnapshot {
  const side = (m: Record<string, string>, desc: boolean): WireLevel[] =>
    Object.entries(m)
      .sort((a, b) => (desc ? Number(b[0]) - Number(a[0]) : Number(a[0]) - Number(b[0])))
      .map(([p, q]) => [p, q]);
  return new RecordedSnapshot(t, { ticker_id: 'BTC_USDT', timestamp: Math.floor(t / 1000), bids: side(bids, true), asks: side(asks, false) }, 100);
}

const P = 10000; // 100.00 in ticks

describe('the fill model’s parameters (the optimistic lane)', () => {
  const before = snap(0, { '100.00': '3' }, { '100.01': '3' });
  const after = snap(1000, { '100.00': '1' }, { '100.01': '3' }); // 2 gone at our price
  const step = (decreaseTrades?: string, queueAhead = '0.5') =>
    fillStep({
      side: 'buy',
      priceTicks: P,
      left: D('2'),
      state: { queueAhead: D(queueAhead), throughSeen: ZERO },
      before,
      after,
      trades: [],
      hasTrades: false,
      assumption: 'optimistic',
      ...(decreaseTrades === undefined ? {} : { decreaseTrades: D(decreaseTrades) }),
    });

  it('decreaseTrades: the share of a decrease that traded at the front; the rest cancelled ahead of us', () => {
    expect(step().fill.toFixed()).toBe('1.5'); // default: all 2 traded, 0.5 ahead of us
    expect(step('1').fill.toFixed()).toBe('1.5');
    expect(step('0.5').fill.toFixed()).toBe('0.5'); // 1 traded, 0.5 of it ahead of us
    expect(step('0').fill.toFixed()).toBe('0'); // only cancellations: nothing traded
    expect(step('0').state.queueAhead.toFixed()).toBe('0'); // ...but they were ahead of us
  });

  it('queueAhead: the share of the displayed quantity ahead of the order when it arrives', () => {
    expect(initialQueue(before, 'buy', P).queueAhead.toFixed()).toBe('3');
    expect(initialQueue(before, 'buy', P, D('0.25')).queueAhead.toFixed()).toBe('0.75');
    expect(initialQueue(before, 'buy', P, D('0')).queueAhead.toFixed()).toBe('0');
  });

  it('property: a smaller decreaseTrades never fills more; 1 is the model as it was (no parameter)', () => {
    const qty = fc.integer({ min: 0, max: 500 }).map((n) => (n / 100).toFixed(2));
    fc.assert(
      fc.property(
        qty,
        qty,
        qty,
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        (d0, d1, q, left100, b1, b2) => {
          const s0 = snap(0, Number(d0) > 0 ? { '100.00': d0 } : {}, { '100.01': '1' });
          const s1 = snap(1000, Number(d1) > 0 ? { '100.00': d1 } : {}, { '100.01': '1' });
          const args = {
            side: 'buy' as const,
            priceTicks: P,
            left: D(left100).div(100),
            state: { queueAhead: D(q), throughSeen: ZERO },
            before: s0,
            after: s1,
            trades: [],
            hasTrades: false,
            assumption: 'optimistic' as const,
          };
          const [lo, hi] = b1 <= b2 ? [b1, b2] : [b2, b1];
          const fLo = fillStep({ ...args, decreaseTrades: D(lo).div(100) }).fill;
          const fHi = fillStep({ ...args, decreaseTrades: D(hi).div(100) }).fill;
          expect(fLo.lte(fHi)).toBe(true);
          expect(fillStep({ ...args, decreaseTrades: D(1) }).fill.eq(fillStep(args).fill)).toBe(true);
        },
      ),
      { seed: 25, numRuns: 300 },
    );
  });

  const market = btcUsdt({ stockPrec: 4, minAmount: D('0.0001'), minTotal: D('1') });
  const filled = (assumption: 'optimistic' | 'pessimistic', fillModel?: { queueAhead: number; decreaseTrades: number }): string => {
    let now = 0;
    const ex = new VirtualExchange({
      market,
      assumption,
      balances: { BTC: D(1), USDT: D(1000) },
      hasTrades: false,
      now: () => now,
      ...(fillModel ? { fillModel } : {}),
    });
    ex.onSnapshot(before);
    ex.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('1'), price: D('100.00') });
    now = 1000;
    ex.onSnapshot(after);
    return ex.fills.reduce((a, f) => a.add(f.amount), ZERO).toFixed();
  };

  it('the virtual exchange applies them to the optimistic lane only; the pessimistic lane is the bound of proven counterparties', () => {
    expect(filled('optimistic')).toBe('0'); // 3 ahead of us, 2 traded
    expect(filled('optimistic', { queueAhead: 0, decreaseTrades: 1 })).toBe('1'); // at the front: the trades reach us
    expect(filled('optimistic', { queueAhead: 0, decreaseTrades: 0 })).toBe('0');
    expect(filled('pessimistic', { queueAhead: 0, decreaseTrades: 1 })).toBe('0');
  });

  it('a config’s fillModel block: defaults when absent, a share in [0, 1], no unknown key', () => {
    expect(FillModelSchema.parse(undefined)).toEqual({ queueAhead: 1, decreaseTrades: 1 });
    expect(FillModelSchema.parse({ decreaseTrades: '0.25' })).toEqual({ queueAhead: 1, decreaseTrades: 0.25 });
    expect(FillModelSchema.safeParse({ queueAhead: 1.5 }).success).toBe(false);
    expect(FillModelSchema.safeParse({ queueahead: 0.5 }).success).toBe(false);
    const base = { balances: { BTC: 1 }, strategies: [{ id: 'mm', use: 'market-maker', market: 'BTC_USDT' }] };
    expect(BacktestConfigSchema.parse(base).fillModel).toEqual({ queueAhead: 1, decreaseTrades: 1 });
    expect(BacktestConfigSchema.parse({ ...base, fillModel: { queueAhead: 0.5, decreaseTrades: 0 } }).fillModel).toEqual({
      queueAhead: 0.5,
      decreaseTrades: 0,
    });
  });

  it('one line states the model and the fee rates', () => {
    expect(fillModelLine({ queueAhead: 1, decreaseTrades: 1 }, { maker: D('0.001'), taker: D('0.002') })).toBe(
      'fill model: pessimistic bound; optimistic lane queueAhead 1, decreaseTrades 1 (defaults); fees maker 0.1 %, taker 0.2 %',
    );
  });
});
