import type { BacktestReport } from './build-report.js';
import { showFigure } from './report-format.js';
import { reportFillModelLine } from './fill-model-line.js';

/** What `bot backtest` prints: one block per fill assumption, then the band and where the report is. */
export function formatBacktestSummary(r: BacktestReport, paths: { json: string; html: string }): string {
  const head = `backtest ${r.market}: ${r.start} → ${r.end} (${r.durationSec.toFixed(0)} s, ${r.snapshots} snapshots, ${r.trades} trades)`;
  const lines = [r.partial ? `${head} PARTIAL: stopped by Ctrl-C, figures up to ${r.end} only` : head];
  const show = (k: string, v: unknown): string => showFigure(k, v, r.precision, { riskRatios: r.riskRatios });
  for (const l of r.lanes) {
    const m = l.metrics;
    lines.push(
      `  ${l.assumption.padEnd(11)} fills ${show('fills', m['fills'])}, volume ${show('volume', m['volume'])}, fees ${show('fees', m['fees'])}, ` +
        `trading PnL ${show('tradingPnl', m['tradingPnl'])}, equity change ${show('equityChange', m['equityChange'])}, ` +
        `max drawdown ${show('maxDrawdown', m['maxDrawdown'])}, orders ${l.orders.accepted}, rejections ${Object.values(l.rejections).reduce((a, b) => a + b, 0)}`,
    );
  }
  const band = r.band['tradingPnl'];
  if (band)
    lines.push(
      `  trading PnL band [pessimistic, optimistic]: [${show('tradingPnl', band[0])}, ${show('tradingPnl', band[1])}] (each lane follows its own path: see the report)`,
    );
  lines.push(`  ${reportFillModelLine(r)}`);
  lines.push(`  report: ${paths.html}`, `          ${paths.json}`);
  return lines.join('\n');
}
