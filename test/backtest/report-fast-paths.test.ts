import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawdown, laneMetrics, strategyPnlCurve } from '../../backtest/report/metrics.js';
import { fixed } from '../../backtest/report/report-format.js';
import { EquityCurve, type EquityPoint } from '../../backtest/replay/equity-curve.js';
import { D, ZERO } from '../../src/model/decimal.js';
import { parseMarket } from '../../src/venue/parse-market.js';
import { btcUsdtWireMarket } from './fixtures.js';

/**
 * The report's fast paths give the answers of the plain ones they replaced: the PnL curve (all of it, or at the
 * charted points) and the inventory figures read from a replay's EquityCurve columns, as worked out from its points
 * one by one; `fixed` rounds and prints in one step, as rounding (toDecimalPlaces) and then printing did.
 */

const money = fc.double({ min: -1e9, max: 1e9, noNaN: true });
const point = fc.record({ t: fc.nat(), mid: fc.double({ min: 0, max: 1e7, noNaN: true }), equity: money, inventory: money });

/** The definition, point by point (metrics.ts): equity over holding the starting balances at the point's mid. */
const pnlOf = (p: EquityPoint, initialMoney: number, initialStock: number): number => p.equity - (initialMoney + initialStock * p.mid);

describe('the report from EquityCurve columns', () => {
  it('strategyPnlCurve and the inventory figures are those of the points one by one', () => {
    const market = parseMarket(btcUsdtWireMarket());
    fc.assert(
      fc.property(
        fc.array(point, { maxLength: 300 }),
        money,
        fc.double({ min: -1e3, max: 1e3, noNaN: true }),
        fc.array(fc.nat(320)),
        (points, initialMoney, initialStock, at) => {
          const curve = EquityCurve.of(points);
          const want = points.map((p) => pnlOf(p, initialMoney, initialStock));
          expect(strategyPnlCurve(curve, initialMoney, initialStock)).toEqual(want);
          // the chart's points: the same figures, NaN past the end
          expect(strategyPnlCurve(curve, initialMoney, initialStock, at)).toEqual(at.map((i) => (i < points.length ? want[i] : Number.NaN)));
          const m = laneMetrics({
            market,
            fills: [],
            pnl: { realised: ZERO, fees: ZERO, unrealised: ZERO, net: ZERO, position: ZERO, avgCost: ZERO, fills: 0 },
            sampleMs: 1000,
            initial: { BTC: D('1'), USDT: D('1000') },
            final: { BTC: D('1'), USDT: D('1000') },
            firstMid: D('100'),
            lastMid: D('100'),
            orderedBase: ZERO,
            ordersAccepted: 0,
            equity: curve,
          });
          const inv = points.map((p) => p.inventory);
          const mean = inv.length === 0 ? 0 : inv.reduce((a, b) => a + b, 0) / inv.length;
          expect(m.inventory).toEqual({
            min: inv.length === 0 ? 0 : inv.reduce((a, b) => (b < a ? b : a), Number.POSITIVE_INFINITY),
            max: inv.length === 0 ? 0 : inv.reduce((a, b) => (b > a ? b : a), Number.NEGATIVE_INFINITY),
            mean,
            final: 1,
          });
          expect(m.maxDrawdown).toBe(drawdown(points.map((p) => pnlOf(p, 1000, 1))).money);
        },
      ),
    );
  });
});

/** `fixed` as it was: round to the places, then print (a zero without its sign). */
function fixedInTwoSteps(value: string | number, places: number): string {
  const d = D(typeof value === 'number' ? value.toString() : value).toDecimalPlaces(places);
  return (d.isZero() ? d.abs() : d).toFixed(places);
}

const decimalText = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.nat(20))
  .map(([negative, digits, scale]) => D(`${negative ? '-' : ''}${digits}e-${scale}`).toFixed());

describe('fixed', () => {
  it('rounds half-up and prints in one step exactly as rounding then printing did', () => {
    fc.assert(
      fc.property(
        fc.oneof(decimalText, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom('-0', '0', '-0.004', '-0.005', '0.5', '-0.5')),
        fc.nat(12),
        (value, places) => {
          expect(fixed(value, places)).toBe(fixedInTwoSteps(value, places));
        },
      ),
    );
  });
});
