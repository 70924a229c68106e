/**
 * One self-contained HTML file for a backtest report: the figures as tables and three charts (price
 * with own fills; equity with the optimistic/pessimistic band; inventory), drawn by Chart.js, whose UMD
 * build is read from node_modules at run time and inlined, so the file opens offline and nothing of
 * Chart.js is copied into the repository.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BacktestReport } from './build-report.js';
import { reportFillModelLine } from './fill-model-line.js';

/** Chart.js's UMD bundle (the package's exports map hides dist/, so resolve the package and look beside it). */
export function chartJsSource(): string {
  const main = createRequire(import.meta.url).resolve('chart.js');
  return readFileSync(join(dirname(main), 'chart.umd.js'), 'utf8');
}

const esc = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** JSON inside a <script>: `</script>` and friends cannot end the element. */
const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');

function figureRows(report: BacktestReport): string {
  const lanes = report.lanes;
  const keys = [
    ['tradingPnl', 'trading PnL (realised + unrealised − fees)'],
    ['realised', 'realised PnL'],
    ['unrealised', 'unrealised PnL (at final mid)'],
    ['fees', 'fees'],
    ['equityChange', 'equity change (incl. revaluation of starting balances)'],
    ['returnFraction', 'return'],
    ['maxDrawdown', 'max drawdown of strategy PnL (money)'],
    ['maxDrawdownFraction', 'max drawdown (fraction of initial equity)'],
    ['sharpe', 'Sharpe (annualised)'],
    ['sortino', 'Sortino (annualised)'],
    ['volume', 'volume (money)'],
    ['turnover', 'turnover (volume / initial equity)'],
    ['fills', 'fills'],
    ['makerFills', 'maker fills'],
    ['takerFills', 'taker fills'],
    ['fillRatioAmount', 'fill ratio (filled / ordered amount)'],
    ['fillRatioOrders', 'fill ratio (orders with a fill / accepted)'],
    ['position', 'position from fills'],
    ['inventory', 'inventory (stock total: min / max / mean / final)'],
  ] as const;
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return '–';
    if (typeof v === 'object') {
      const o = v as Record<string, number>;
      return [o['min'], o['max'], o['mean'], o['final']].map((x) => (typeof x === 'number' ? x.toPrecision(6) : '')).join(' / ');
    }
    if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toPrecision(6);
    // what is left: the metrics' Decimal strings, booleans and the like (objects were handled above)
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    const n = Number(text);
    return esc(Number.isFinite(n) && text.length > 14 ? n.toPrecision(10) : text);
  };
  const head = `<tr><th></th>${lanes.map((l) => `<th>${esc(l.assumption)}</th>`).join('')}</tr>`;
  const rows = keys.map(([k, label]) => `<tr><td>${esc(label)}</td>${lanes.map((l) => `<td>${cell(l.metrics[k])}</td>`).join('')}</tr>`);
  const orders = `<tr><td>orders accepted / canceled / intents</td>${lanes.map((l) => `<td>${l.orders.accepted} / ${l.orders.canceled} / ${l.orders.intents}</td>`).join('')}</tr>`;
  const rej = `<tr><td>rejections by reason</td>${lanes
    .map((l) => `<td>${Object.entries(l.rejections).map(([k, v]) => `${esc(k)}: ${v}`).join('<br>') || 'none'}</td>`)
    .join('')}</tr>`;
  const bal = `<tr><td>final balances</td>${lanes.map((l) => `<td>${Object.entries(l.finalBalances).map(([k, v]) => `${esc(k)} ${esc(v)}`).join('<br>')}</td>`).join('')}</tr>`;
  return `<table>${head}${rows.join('')}${orders}${rej}${bal}</table>`;
}

export function renderHtmlReport(report: BacktestReport, chartJs: string = chartJsSource()): string {
  const t0 = report.series.t[0] ?? 0;
  const minutes = report.series.t.map((t) => (t - t0) / 60_000);
  const fills = report.lanes.map((l) => ({
    lane: l.assumption,
    buys: l.fills.filter((f) => f.side === 'buy').map((f) => ({ x: (f.t - t0) / 60_000, y: Number(f.price) })),
    sells: l.fills.filter((f) => f.side === 'sell').map((f) => ({ x: (f.t - t0) / 60_000, y: Number(f.price) })),
  }));
  const data = { minutes, mid: report.series.mid, equity: report.series.equity, pnl: report.series.pnl, inventory: report.series.inventory, fills };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Backtest ${esc(report.market)} ${esc(report.start)}</title>
<style>body{font:14px system-ui,sans-serif;margin:24px;max-width:1200px}table{border-collapse:collapse;margin:12px 0}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child{text-align:left}.chart{height:320px;margin:24px 0}
p.note{color:#555;max-width:900px}</style></head><body>
<h1>Backtest: ${esc(report.market)}</h1>
<p>${esc(report.start)} → ${esc(report.end)} (${report.durationSec.toFixed(0)} s), ${report.snapshots} snapshots, ${report.trades} trades; data: ${report.dataFiles.map(esc).join(', ')}${report.source ? ` (source: ${esc(report.source)})` : ''}</p>
<p class="note">Two fill assumptions run side by side on the same data: the truth lies between the <b>pessimistic</b> and the <b>optimistic</b> column. ${esc(report.sampling)}.</p>
<p class="note" id="fill-model-line">${esc(reportFillModelLine(report))}</p>
${figureRows(report)}
<h2>Price and own fills</h2><div class="chart"><canvas id="price"></canvas></div>
<h2>Strategy PnL over holding the starting balances (band between fill assumptions)</h2><div class="chart"><canvas id="equity"></canvas></div>
<h2>Inventory (stock total)</h2><div class="chart"><canvas id="inventory"></canvas></div>
<details><summary>Fill model</summary><pre style="white-space:pre-wrap">${esc(report.fillModel)}</pre></details>
<script>${chartJs}</script>
<script>
const D = ${scriptJson(data)};
const xy = (ys) => D.minutes.map((x, i) => ({ x, y: ys[i] }));
const common = { responsive: true, maintainAspectRatio: false, animation: false, parsing: false, normalized: true,
  scales: { x: { type: 'linear', title: { display: true, text: 'minutes from start' } } }, plugins: { legend: { position: 'bottom' } } };
const colors = { optimistic: '#2a9d8f', pessimistic: '#e76f51' };
new Chart(document.getElementById('price'), { type: 'line', options: common, data: { datasets: [
  { label: 'mid', data: xy(D.mid), borderColor: '#555', borderWidth: 1, pointRadius: 0 },
  ...D.fills.flatMap((f) => [
    { type: 'scatter', label: f.lane + ' buys', data: f.buys, backgroundColor: f.lane === 'optimistic' ? '#2a9d8f' : '#264653', pointStyle: 'triangle', pointRadius: 4 },
    { type: 'scatter', label: f.lane + ' sells', data: f.sells, backgroundColor: f.lane === 'optimistic' ? '#f4a261' : '#e76f51', pointStyle: 'rectRot', pointRadius: 4 },
  ]),
] } });
const lanes = Object.keys(D.equity);
new Chart(document.getElementById('equity'), { type: 'line', options: common, data: { datasets: lanes.map((l, i) => ({
  label: l, data: xy(D.pnl[l]), borderColor: colors[l] || '#333', backgroundColor: 'rgba(42,157,143,0.15)', borderWidth: 1, pointRadius: 0,
  fill: i === 0 ? false : '-1' })) } });
new Chart(document.getElementById('inventory'), { type: 'line', options: common, data: { datasets: lanes.map((l) => ({
  label: l, data: xy(D.inventory[l]), borderColor: colors[l] || '#333', borderWidth: 1, pointRadius: 0, stepped: true })) } });
</script></body></html>
`;
}
