import type { BacktestReport } from './build-report.js';
import { reportFillModelLine } from './fill-model-line.js';

/** What `bot backtest` prints: one block per fill assumption, then the band and where the report is. */
export function formatBacktestSummary(r: BacktestReport, paths: { json: string; html: string }): string {
  const lines = [`backtest ${r.market}: ${r.start} → ${r.end} (${r.durationSec.toFixed(0)} s, ${r.snapshots} snapshots, ${r.trades} trades)`];
  for (const l of r.lanes) {
    const m = l.metrics as Record<string, string | number | null>;
    lines.push(
      `  ${l.assumption.padEnd(11)} fills ${m['fills']}, volume ${m['volume']}, fees ${m['fees']}, trading PnL ${m['tradingPnl']}, ` +
        `equity change ${m['equityChange']}, max drawdown ${Number(m['maxDrawdown']).toFixed(2)}, orders ${l.orders.accepted}, ` +
        `rejections ${Object.values(l.rejections).reduce((a, b) => a + b, 0)}`,
    );
  }
  const band = r.band['tradingPnl'];
  if (band) lines.push(`  trading PnL band [pessimistic, optimistic]: [${band[0]}, ${band[1]}]`);
  lines.push(`  ${reportFillModelLine(r)}`);
  lines.push(`  report: ${paths.html}`, `          ${paths.json}`);
  return lines.join('\n');
}
