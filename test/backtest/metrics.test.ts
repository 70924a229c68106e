import { describe, expect, it } from 'vitest';
import { lanePnl } from '../../backtest/report/lane-pnl.js';
import { drawdown, laneMetrics, sharpeSortino, strategyPnlCurve } from '../../backtest/report/metrics.js';
import { EquityCurve } from '../../backtest/replay/equity-curve.js';
import type { FillRecord } from '../../backtest/replay/virtual-exchange.js';
import { PnlLedger } from '../../src/engine/pnl.js';
import { D, type Decimal, ZERO } from '../../src/model/decimal.js';
import { parseMarket } from '../../src/venue/parse-market.js';
import { btcUsdtWireMarket } from './fixtures.js';

let id = 0;
const fill = (side: 'buy' | 'sell', amount: string, price: string, fee = '0'): FillRecord => {
  const a = D(amount);
  const p = D(price);
  return {
    id: ++id,
    t: id * 1000,
    time: id,
    market: 'BTC_USDT',
    side,
    role: 'maker',
    amount: a,
    price: p,
    deal: a.mul(p),
    fee: D(fee),
    orderId: id,
    clientOrderId: `c-${id}`,
  };
};

/** The lane's PnL as the report gets it: the engine's ledger over the fills, its figures marked at `mid`. */
function enginePnl(fills: readonly FillRecord[], mid: Decimal) {
  const ledger = new PnlLedger();
  for (const f of fills) ledger.apply(f);
  const s = ledger.snapshot();
  const figures = {
    id: 's',
    market: 'BTC_USDT',
    fills: s.fills,
    volume: s.volume,
    fees: s.fees,
    realised: s.realised,
    unrealised: ledger.unrealised(mid),
    net: ledger.net(mid),
    inventory: s.position,
    avgCost: s.avgCost,
    ordersPerMinute: 0,
    liveOrders: 0,
    halted: false,
    paused: false,
  };
  return lanePnl([figures], mid, mid);
}
const NO_PNL = enginePnl([], D(100));

describe('backtest metrics', () => {
  it('drawdown and annualised ratios from the sampled curve', () => {
    expect(drawdown([100, 120, 90, 130, 100])).toEqual({ money: 30, fraction: 0.25 });
    expect(drawdown([100, 120, 90, 130, 80]).money).toBe(50);
    const flat = sharpeSortino([100, 100, 100], 1000);
    expect(flat).toEqual({ sharpe: null, sortino: null });
    const up = sharpeSortino([100, 101, 101, 102], 60_000);
    expect(up.sharpe).toBeGreaterThan(0);
    expect(up.sortino).toBeNull(); // no negative return: no downside deviation
  });

  it('puts the lane together: trading PnL = realised + unrealised − fees; equity change against the start', () => {
    const market = parseMarket(btcUsdtWireMarket());
    const fills = [fill('buy', '1', '100', '0.1'), fill('sell', '0.5', '110', '0.055')];
    const m = laneMetrics({
      market,
      fills,
      pnl: enginePnl(fills, D('105')),
      sampleMs: 1000,
      equity: EquityCurve.of([
        { t: 0, mid: 100, equity: 1100, inventory: 0 },
        { t: 1, mid: 105, equity: 1102, inventory: 0.5 },
      ]),
      initial: { BTC: ZERO, USDT: D('1000') },
      final: { BTC: D('0.5'), USDT: D('1000').sub('100.1').add('54.945') },
      firstMid: D('100'),
      lastMid: D('105'),
      orderedBase: D('2'),
      ordersAccepted: 3,
    });
    expect(m.realised.toFixed()).toBe('5');
    expect(m.unrealised.toFixed()).toBe('2.5');
    expect(m.fees.toFixed()).toBe('0.155');
    expect(m.tradingPnl.toFixed()).toBe('7.345');
    expect(m.equityChange.toFixed()).toBe('7.345'); // no initial stock, so both agree
    expect(m.fillRatioAmount.toFixed()).toBe('0.75');
    expect(m.fillRatioOrders).toBeCloseTo(2 / 3);
    expect(m.volume.toFixed()).toBe('155');
  });

  it('risk figures are on the strategy PnL over holding: a price move of the starting inventory is not credited', () => {
    const market = parseMarket(btcUsdtWireMarket());
    // The account only holds its starting 1 BTC + 1000 USDT while the mid swings 100 → 150 → 80 → 120: no trading at all.
    const mids = [100, 150, 80, 120];
    const equity = EquityCurve.of(mids.map((mid, t) => ({ t, mid, equity: 1000 + mid, inventory: 1 })));
    expect(strategyPnlCurve(equity, 1000, 1)).toEqual([0, 0, 0, 0]);
    const m = laneMetrics({
      market,
      fills: [],
      pnl: NO_PNL,
      sampleMs: 1000,
      equity,
      initial: { BTC: D('1'), USDT: D('1000') },
      final: { BTC: D('1'), USDT: D('1000') },
      firstMid: D('100'),
      lastMid: D('120'),
      orderedBase: ZERO,
      ordersAccepted: 0,
    });
    expect(m.equityChange.toFixed()).toBe('20'); // the revaluation shows in the equity change ...
    expect(m.maxDrawdown).toBe(0); // ... but not in the strategy's drawdown
    expect(m.sharpe).toBeNull();
    expect(m.sortino).toBeNull();
  });

  it('Sharpe and drawdown follow the strategy PnL when it moves', () => {
    const market = parseMarket(btcUsdtWireMarket());
    // Flat price 100, starting 0 BTC + 1000 USDT; the strategy's PnL goes 0, +2, -1, +3 (equity = 1000 + PnL).
    const equity = EquityCurve.of([0, 2, -1, 3].map((pnl, t) => ({ t, mid: 100, equity: 1000 + pnl, inventory: 0 })));
    const m = laneMetrics({
      market,
      fills: [],
      pnl: NO_PNL,
      sampleMs: 60_000,
      equity,
      initial: { BTC: ZERO, USDT: D('1000') },
      final: { BTC: ZERO, USDT: D('1003') },
      firstMid: D('100'),
      lastMid: D('100'),
      orderedBase: ZERO,
      ordersAccepted: 0,
    });
    expect(m.maxDrawdown).toBe(3);
    expect(m.maxDrawdownFraction).toBeCloseTo(0.003);
    expect(m.sharpe).toBeGreaterThan(0);
    expect(m.sortino).toBeGreaterThan(0);
  });
});
