import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, ZERO, type Decimal } from '../../src/model/decimal.js';
import { PnlLedger, type LedgerFill } from '../../src/engine/pnl.js';

const fill = (side: 'buy' | 'sell', amount: string, price: string, fee = '0'): LedgerFill => ({ side, amount: D(amount), price: D(price), fee: D(fee) });

describe('PnlLedger (average cost, fees in money)', () => {
  it('realises the difference to the average entry price', () => {
    const l = new PnlLedger();
    l.apply(fill('buy', '1', '100', '0.1'));
    l.apply(fill('buy', '1', '110', '0.11'));
    expect(l.snapshot().avgCost.toFixed()).toBe('105');
    l.apply(fill('sell', '0.5', '120', '0.06'));
    const s = l.snapshot();
    expect(s.position.toFixed()).toBe('1.5');
    expect(s.realised.toFixed()).toBe('7.5');
    expect(s.fees.toFixed()).toBe('0.27');
    expect(l.unrealised(D('100')).toFixed()).toBe('-7.5');
    expect(l.net(D('100')).toFixed()).toBe('-0.27');
  });

  it('crosses zero: closes the long, opens a short at the fill price', () => {
    const l = new PnlLedger();
    l.apply(fill('buy', '1', '100'));
    l.apply(fill('sell', '3', '90'));
    const s = l.snapshot();
    expect(s.position.toFixed()).toBe('-2');
    expect(s.realised.toFixed()).toBe('-10');
    expect(s.avgCost.toFixed()).toBe('90');
    expect(l.unrealised(D('80')).toFixed()).toBe('20');
  });

  it('keeps realised + unrealised equal to the exact cash flow + position × mark (property)', () => {
    const fillArb = fc.record({
      side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
      amount: fc.integer({ min: 1, max: 10_000_000 }).map((n) => D(n).div(1_000_000)),
      price: fc.integer({ min: 1, max: 10_000_000 }).map((n) => D(n).div(100)),
      fee: fc.integer({ min: 0, max: 1000 }).map((n) => D(n).div(10_000)),
    });
    fc.assert(
      fc.property(fc.array(fillArb, { maxLength: 40 }), fc.integer({ min: 1, max: 10_000_000 }), (fills, m) => {
        const mark = D(m).div(100);
        const l = new PnlLedger();
        let cash: Decimal = ZERO;
        let pos: Decimal = ZERO;
        for (const f of fills) {
          l.apply(f);
          const value = f.amount.times(f.price);
          cash = f.side === 'buy' ? cash.minus(value) : cash.plus(value);
          pos = f.side === 'buy' ? pos.plus(f.amount) : pos.minus(f.amount);
        }
        const s = l.snapshot();
        expect(s.position.eq(pos)).toBe(true);
        expect(s.realised.plus(l.unrealised(mark)).eq(cash.plus(pos.times(mark)))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
