import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../backtest/report/build-report.js';
import { renderHtmlReport } from '../../backtest/report/html-report.js';
import { runBacktest, type BacktestResult } from '../../backtest/replay/run-backtest.js';
import { FILL_MODEL_DOC } from '../../src/fill-model/fill-model-doc.js';
import { D, ZERO, type Decimal } from '../../src/model/decimal.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import { binanceImportOnce } from './binance-import-once.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-binance-'));
let data = '';
const initial: Record<string, Decimal> = { BTC: D('0.5'), USDT: D('40000') };
let result: BacktestResult;

beforeAll(async () => {
  ({ file: data } = await binanceImportOnce(tmp));
  const mm = await loadStrategy(builtinStrategies, 'market-maker');
  result = await runBacktest({
    files: [data],
    strategies: [
      {
        id: 'mm',
        definition: mm,
        market: 'BTC_USDT',
        // tight quotes (about 6 USDT from a 61,800 mid) so the 11 minutes give fills on both sides
        params: { spread: '0.0002', size: '0.002', levels: 2, levelSpacing: '0.0001', maxInventory: '0.02', refreshThreshold: '0.00005' },
      },
    ],
    balances: initial,
    polling: { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 },
  });
}, 180_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('backtest of the market maker on the Binance capture', () => {
  it('replays the whole capture on virtual time, with recorded trades tightening the band', () => {
    expect(result.snapshots).toBeGreaterThan(600);
    expect(result.trades).toBeGreaterThan(19_000);
    expect(result.lanes.map((l) => l.assumption)).toEqual(['optimistic', 'pessimistic']);
    for (const lane of result.lanes) {
      expect(lane.exchange.fills.length).toBeGreaterThan(10);
      expect(lane.errors).toEqual([]);
      // everything the strategy wanted passed the rules before it was sent: the venue rejected nothing for rules
      expect([...lane.exchange.rejections.keys()].filter((k) => k.startsWith('code-'))).toEqual([]);
    }
  });

  it('accounts exactly: final balances = initial + sum of fills − fees, per lane', () => {
    for (const lane of result.lanes) {
      let btc = initial['BTC']!;
      let usdt = initial['USDT']!;
      for (const f of lane.exchange.fills) {
        expect(f.deal.eq(f.amount.mul(f.price))).toBe(true);
        if (f.side === 'buy') {
          btc = btc.add(f.amount);
          usdt = usdt.sub(f.deal).sub(f.fee);
        } else {
          btc = btc.sub(f.amount);
          usdt = usdt.add(f.deal).sub(f.fee);
        }
      }
      const bal = lane.exchange.tradeBalances();
      // stop() cancelled every order: nothing stays frozen
      expect(bal['BTC']!.freeze.isZero() && bal['USDT']!.freeze.isZero()).toBe(true);
      expect(bal['BTC']!.available.toFixed()).toBe(btc.toFixed());
      expect(bal['USDT']!.available.toFixed()).toBe(usdt.toFixed());
    }
  });

  it('the engine learnt every fill through the deals endpoint, once', () => {
    for (const lane of result.lanes) {
      const venue = lane.exchange.fills.map((f) => f.id).sort((a, b) => a - b);
      const engine = lane.engineFills.map((d) => d.id).sort((a, b) => a - b);
      expect(engine).toEqual(venue);
      const fees = lane.summary!.strategies.reduce((a, s) => a.add(s.fees), ZERO);
      expect(fees.toFixed()).toBe(lane.exchange.fills.reduce((a, f) => a.add(f.fee), ZERO).toFixed());
    }
  });

  it('builds the report: both lanes, the band, and a self-contained HTML page', () => {
    const report = buildReport(result, { files: [data], initial, fillModelDoc: FILL_MODEL_DOC });
    expect(report.lanes).toHaveLength(2);
    const [pes, opt] = report.band['tradingPnl']!;
    expect(Number.isFinite(Number(pes)) && Number.isFinite(Number(opt))).toBe(true);
    const lane = report.lanes[0]!;
    expect(lane.fills.length).toBe(result.lanes[0]!.exchange.fills.length);
    expect(Number(lane.metrics['fees'])).toBeGreaterThan(0);
    expect(report.series.t.length).toBeGreaterThan(100);
    const html = renderHtmlReport(report);
    expect(html).toContain('<canvas id="equity">');
    expect(html).not.toMatch(/<script[^>]+src=/); // nothing loaded from elsewhere: opens offline
    expect(html.length).toBeGreaterThan(150_000); // chart.js is inlined
    // the page's own script runs and builds the three charts (Chart stubbed: no browser here)
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const own = scripts[scripts.length - 1]!;
    const charts: Array<{ canvas: string; config: { data: { datasets: Array<{ label: string; data: unknown[] }> } } }> = [];
    class Chart {
      constructor(canvas: string, config: (typeof charts)[number]['config']) {
        charts.push({ canvas, config });
      }
    }
    // the report's own inline script, run as the page would run it, with a stand-in Chart.js
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    new Function('Chart', 'document', own)(Chart, { getElementById: (id: string) => id });
    expect(charts.map((c) => c.canvas)).toEqual(['price', 'equity', 'inventory']);
    const labels = charts[1]!.config.data.datasets.map((d) => d.label);
    expect(labels).toEqual(['optimistic', 'pessimistic']);
    expect(charts[1]!.config.data.datasets[0]!.data.length).toBe(report.series.t.length);
    const fillsShown = charts[0]!.config.data.datasets.slice(1).reduce((n, d) => n + d.data.length, 0);
    expect(fillsShown).toBe(report.lanes.reduce((n, l) => n + l.fills.length, 0));
  });
});
