import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lanePnl } from '../../backtest/report/lane-pnl.js';
import { PnlLedger, type LedgerFill } from '../../src/engine/pnl.js';
import type { StrategyFigures } from '../../src/engine/run-summary.js';
import { D, type Decimal, ZERO } from '../../src/model/decimal.js';

/** A strategy's figures as the engine's summary gives them: its ledger marked at the engine's mid (0 unrealised without one). */
function figures(id: string, ledger: PnlLedger, engineMid: Decimal | undefined): StrategyFigures {
  const s = ledger.snapshot();
  return {
    id,
    market: 'BTC_USDT',
    fills: s.fills,
    volume: s.volume,
    fees: s.fees,
    realised: s.realised,
    unrealised: ledger.unrealised(engineMid),
    net: ledger.net(engineMid),
    inventory: s.position,
    avgCost: s.avgCost,
    ordersPerMinute: 0,
    liveOrders: 0,
    halted: false,
    paused: false,
  };
}

const fillArb: fc.Arbitrary<LedgerFill> = fc.record({
  side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
  amount: fc.integer({ min: 1, max: 3_000_000 }).map((n) => D(n).div(1_000_000)),
  price: fc.integer({ min: 2_990_000, max: 3_010_000 }).map((n) => D(n).div(100)),
  fee: fc.integer({ min: 0, max: 1000 }).map((n) => D(n).div(10_000)),
});
const priceArb = fc.integer({ min: 2_980_000, max: 3_020_000 }).map((n) => D(n).div(100));

describe("the report's PnL from the engine's ledgers (lane-pnl)", () => {
  it('sums the strategies and re-marks them at the final mid exactly: what each ledger itself gives at that mid (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fillArb, { maxLength: 30 }), { minLength: 1, maxLength: 3 }), priceArb, priceArb, (perStrategy, engineMid, mark) => {
        const ledgers = perStrategy.map((fills) => {
          const l = new PnlLedger();
          for (const f of fills) l.apply(f);
          return l;
        });
        const p = lanePnl(
          ledgers.map((l, i) => figures(`s${i}`, l, engineMid)),
          engineMid,
          mark,
        );
        const sum = (f: (l: PnlLedger) => Decimal): Decimal => ledgers.reduce((s, l) => s.add(f(l)), ZERO);
        expect(p.unrealised.toFixed()).toBe(sum((l) => l.unrealised(mark)).toFixed());
        expect(p.net.toFixed()).toBe(sum((l) => l.net(mark)).toFixed());
        expect(p.realised.toFixed()).toBe(sum((l) => l.snapshot().realised).toFixed());
        expect(p.fees.toFixed()).toBe(sum((l) => l.snapshot().fees).toFixed());
        expect(p.position.toFixed()).toBe(sum((l) => l.snapshot().position).toFixed());
        expect(p.fills).toBe(perStrategy.flat().length);
        // the average cost is the position's break-even price: unrealised = position × (mark − avgCost), to its 10 places
        expect(p.position.mul(mark.sub(p.avgCost)).sub(p.unrealised).abs().lte(p.position.abs().mul('0.00000000005'))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('one strategy: its average cost; without an engine mid, marks with it (12 places)', () => {
    const l = new PnlLedger();
    l.apply({ side: 'buy', amount: D('1'), price: D('100'), fee: ZERO });
    l.apply({ side: 'buy', amount: D('2'), price: D('101'), fee: D('0.5') });
    l.apply({ side: 'sell', amount: D('1.5'), price: D('103'), fee: ZERO });
    const at = lanePnl([figures('s', l, D('102'))], D('102'), D('99'));
    expect(at.avgCost.toFixed()).toBe(l.snapshot().avgCost.toDecimalPlaces(10).toFixed());
    expect(at.unrealised.toFixed()).toBe(l.unrealised(D('99')).toFixed());
    expect(at.net.toFixed()).toBe(l.net(D('99')).toFixed());
    const unmarked = lanePnl([figures('s', l, undefined)], undefined, D('99'));
    expect(
      unmarked.unrealised
        .sub(l.unrealised(D('99')))
        .abs()
        .lte('0.000000000001'),
    ).toBe(true);
    expect(lanePnl([], undefined, D('99'))).toEqual({ realised: ZERO, fees: ZERO, unrealised: ZERO, net: ZERO, position: ZERO, avgCost: ZERO, fills: 0 });
  });
});
