import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, Decimal, ZERO } from '../../src/model/decimal.js';
import { PnlLedger, type LedgerFill } from '../../src/engine/pnl.js';

/** The ledger's fill as decimal.js's own operations made it (before decimal-small and the copy-free comparisons). */
class ReferenceLedger {
  position = ZERO;
  basis = ZERO;
  realised = ZERO;
  fees = ZERO;
  volume = ZERO;
  bought = ZERO;
  sold = ZERO;
  apply(fill: LedgerFill): void {
    const buy = fill.side === 'buy';
    const notional = fill.amount.times(fill.price);
    this.fees = this.fees.plus(fill.fee);
    this.volume = this.volume.plus(notional);
    if (buy) this.bought = this.bought.plus(fill.amount);
    else this.sold = this.sold.plus(fill.amount);
    const pos = this.position;
    const signed = buy ? fill.amount : fill.amount.neg();
    if (pos.isZero() || pos.isPositive() === buy) {
      this.basis = this.basis.plus(notional);
      this.position = pos.plus(signed);
      return;
    }
    const size = pos.abs();
    const closing = Decimal.min(fill.amount, size);
    const released = closing.eq(size) ? this.basis : this.basis.times(closing).div(size).toDecimalPlaces(12);
    const value = closing.times(fill.price);
    this.realised = this.realised.plus(pos.isPositive() ? value.minus(released) : released.minus(value));
    this.basis = this.basis.minus(released);
    this.position = pos.plus(signed);
    const opening = fill.amount.minus(closing);
    if (opening.gt(0)) this.basis = opening.times(fill.price);
  }
}

/** A Decimal's parts (sign, exponent, digit words): equal parts are the same value written the same way, zero's sign too. */
const parts = (x: Decimal) => {
  const p = x as unknown as { s: number; e: number; d: number[] | null };
  return { s: p.s, e: p.e, d: p.d };
};

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

  it('property (seeded): every figure is the Decimal that decimal.js operations give, part for part', () => {
    // amounts and prices on a few grids, so positions close exactly, cross zero and are partly reduced
    const fillArb = fc.record({
      side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
      amount: fc.oneof(
        fc.integer({ min: 1, max: 30 }).map((n) => D(n).div(100)),
        fc.integer({ min: 1, max: 10_000_000 }).map((n) => D(n).div(1_000_000)),
      ),
      price: fc.oneof(
        fc.integer({ min: 1, max: 10_000_000 }).map((n) => D(n).div(100)),
        fc.constantFrom(D('0.0000003'), D('123456789.123456')),
      ),
      fee: fc.integer({ min: 0, max: 1000 }).map((n) => D(n).div(10_000)),
    });
    fc.assert(
      fc.property(fc.array(fillArb, { maxLength: 40 }), (fills) => {
        const l = new PnlLedger();
        const r = new ReferenceLedger();
        for (const f of fills) {
          l.apply(f);
          r.apply(f);
          const s = l.snapshot();
          expect([s.position, s.realised, s.fees, s.volume, s.bought, s.sold].map(parts)).toEqual(
            [r.position, r.realised, r.fees, r.volume, r.bought, r.sold].map(parts),
          );
          const avg = r.position.isZero() ? ZERO : r.basis.div(r.position.abs()).toDecimalPlaces(12);
          expect(parts(s.avgCost)).toEqual(parts(avg));
        }
      }),
      { numRuns: 500, seed: 27 },
    );
  });
});
