import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildReport, computeLaneMetrics } from '../../backtest/report/build-report.js';
import { strategyPnlCurve } from '../../backtest/report/metrics.js';
import type { LaneView } from '../../backtest/replay/lane-view.js';
import { runBacktest } from '../../backtest/replay/run-backtest.js';
import { D, type Decimal, ZERO } from '../../src/model/decimal.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';

const sample = fileURLToPath(new URL('../../backtest/sample-data/sim-btc-usdt.jsonl.gz', import.meta.url));
const balances = { BTC: D('1'), USDT: D('50000') };

describe("the backtest report's PnL is the engine's", () => {
  it("realised, fees and position are the lanes' engine ledgers' figures; unrealised marks them at the final mid; nothing is recomputed from the fills", async () => {
    const r = await runBacktest({
      files: [sample],
      cache: { dir: false },
      keepJournal: false,
      strategies: [
        {
          id: 's',
          definition: await loadStrategy(builtinStrategies, 'market-maker'),
          market: 'BTC_USDT',
          params: { spread: '0.0004', size: '0.01', levels: 2, maxInventory: '0.1', refreshThreshold: '0.0002' },
        },
      ],
      balances,
      polling: { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 },
    });
    const report = buildReport(r, { files: [sample], initial: balances, fillModelDoc: '' });
    for (const [i, lane] of r.lanes.entries()) {
      const m = report.lanes[i]!.metrics;
      const figures = lane.summary!.strategies;
      const sum = (f: (x: (typeof figures)[number]) => Decimal): string => figures.reduce((s, x) => s.add(f(x)), ZERO).toFixed();
      expect(m['realised']).toBe(sum((x) => x.realised));
      expect(m['fees']).toBe(sum((x) => x.fees));
      expect(m['position']).toBe(sum((x) => x.inventory));
      // the mark: the last equity point's snapshot, exactly; the ledgers' books balance there against the venue's cash flow
      const mark = lane.marks.lastMid!;
      expect(mark.toNumber()).toBe(lane.equity.at(-1)!.mid);
      const cash = lane.exchange.fills.reduce((s, f) => (f.side === 'sell' ? s.add(f.deal) : s.sub(f.deal)), ZERO);
      const position = D(m['position'] as string);
      expect(
        D(m['realised'] as string)
          .add(D(m['unrealised'] as string))
          .toFixed(),
      ).toBe(cash.add(position.mul(mark)).toFixed());
      expect(m['tradingPnl']).toBe(
        D(m['realised'] as string)
          .sub(D(m['fees'] as string))
          .add(D(m['unrealised'] as string))
          .toFixed(),
      );
      expect(report.lanes[i]!.errors).toEqual([]);
    }
    // the charted strategy PnL is strategyPnlCurve's at the charted points (buildReport computes only those)
    const charted = buildReport(r, { files: [sample], initial: balances, fillModelDoc: '', maxPoints: 50 });
    const times = Array.from(r.lanes[0]!.equity.column('t'));
    expect(charted.series.t).toHaveLength(50);
    for (const lane of r.lanes) {
      const curve = strategyPnlCurve(lane.equity, balances.USDT.toNumber(), balances.BTC.toNumber());
      expect(charted.series.pnl[lane.assumption]).toEqual(charted.series.t.map((t) => curve[times.indexOf(t)]));
    }
    // the pessimistic lane ends holding stock, so the mark matters (and the engine's own last mid was another)
    const held = r.lanes.find((l) => !D(report.lanes[r.lanes.indexOf(l)]!.metrics['position'] as string).isZero());
    expect(held).toBeDefined();
    expect(held!.marks.engineMid!.eq(held!.marks.lastMid!)).toBe(false);
    // a venue fill the engine never learnt is named: the figures are the ledgers'
    const lane = r.lanes[0]!;
    const view: LaneView = {
      ...lane,
      marks: lane.marks,
      exchange: { ...lane.exchange, fills: [...lane.exchange.fills, lane.exchange.fills[0]!], total: (a) => lane.exchange.total(a) },
    };
    const n = lane.exchange.fills.length;
    expect(computeLaneMetrics(r, view, balances).problems).toEqual([
      `the engine's PnL ledgers hold ${n} fills, the venue made ${n + 1}: the PnL figures are the ledgers'`,
    ]);
  }, 60_000);
});
