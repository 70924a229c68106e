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
import { fillsTable } from './fills-table.js';
import { fixed, showFigure } from './report-format.js';
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
    ['realised', 'realised PnL (before fees)'],
    ['unrealised', 'unrealised PnL (at final mid)'],
    ['fees', 'fees'],
    ['equityChange', 'equity change (incl. revaluation of starting balances)'],
    ['returnFraction', 'return'],
    ['maxDrawdown', 'max drawdown of strategy PnL (money)'],
    ['maxDrawdownFraction', 'max drawdown (of initial equity)'],
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
  const p = report.precision;
  const cell = (k: string, v: unknown): string => esc(showFigure(k, v, p, { riskRatios: report.riskRatios }));
  const head = `<tr><th></th>${lanes.map((l) => `<th>${esc(l.assumption)}</th>`).join('')}</tr>`;
  const rows = keys.map(([k, label]) => `<tr><td>${esc(label)}</td>${lanes.map((l) => `<td>${cell(k, l.metrics[k])}</td>`).join('')}</tr>`);
  const orders = `<tr><td>orders accepted / canceled / intents</td>${lanes.map((l) => `<td>${l.orders.accepted} / ${l.orders.canceled} / ${l.orders.intents}</td>`).join('')}</tr>`;
  const rej = `<tr><td>rejections by reason</td>${lanes
    .map(
      (l) =>
        `<td>${
          Object.entries(l.rejections)
            .map(([k, v]) => `${esc(k)}: ${v}`)
            .join('<br>') || 'none'
        }</td>`,
    )
    .join('')}</tr>`;
  const places = (asset: string): number => (asset === report.assets.stock ? p.stock : p.money);
  const bal = `<tr><td>final balances</td>${lanes
    .map(
      (l) =>
        `<td>${Object.entries(l.finalBalances)
          .map(([k, v]) => `${esc(k)} ${fixed(v, places(k))}`)
          .join('<br>')}</td>`,
    )
    .join('')}</tr>`;
  return `<table class="figures">${head}${rows.join('')}${orders}${rej}${bal}</table>`;
}

/** Why the lanes are no upper and lower bound of one path (a reader otherwise takes pessimistic > optimistic for a bug). */
export const LANES_NOTE =
  'Each fill assumption replays the same recorded market but follows its own path: its own fills change its inventory, ' +
  'and so the quotes it places next, the fills those get and the fees it pays. The two lanes are therefore not the two ' +
  'edges of one path, and the pessimistic lane can end above the optimistic one (for example when the optimistic lane ' +
  'filled early and then held inventory through a move against it).';

function partialBanner(report: BacktestReport): string {
  if (!report.partial) return '';
  return `<p class="partial"><b>Partial run:</b> the replay was stopped (Ctrl-C) at ${esc(report.end)}; every figure covers only the data up to then.</p>`;
}

function riskNote(report: BacktestReport): string {
  if (report.riskRatios) return '';
  const hours = (report.durationSec / 3600).toPrecision(2);
  return ` Sharpe and Sortino are n/a: this run covers ${hours} h of data, and an annualised ratio needs at least a day.`;
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
<style>body{font:14px system-ui,sans-serif;margin:24px;max-width:1200px;overflow-wrap:anywhere}table{border-collapse:collapse;margin:12px 0;max-width:100%}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child{text-align:left}.chart{height:320px;margin:24px 0}
table.fills td:nth-child(2),table.fills td:nth-child(3),table.fills td:nth-child(7){text-align:left}table.fills tr.buy td:nth-child(3){color:#1d6f42}
table.fills tr.sell td:nth-child(3){color:#b3261e}p.note{color:#555;max-width:900px}p.partial{background:#fff3cd;border:1px solid #e0c060;padding:8px 12px}</style></head><body>
<h1>Backtest: ${esc(report.market)}${report.partial ? ' (partial)' : ''}</h1>
${partialBanner(report)}
<p>${esc(report.start)} → ${esc(report.end)} (${report.durationSec.toFixed(0)} s), ${report.snapshots} snapshots, ${report.trades} trades; data: ${report.dataFiles.map(esc).join(', ')}${report.source ? ` (source: ${esc(report.source)})` : ''}</p>
<p class="note">Two fill assumptions run side by side on the same data: the <b>pessimistic</b> lane fills only on proven counterparties, the <b>optimistic</b> one on every sign of trading at the price. ${esc(LANES_NOTE)}</p>
<p class="note">Prices and money at the market's ${report.precision.money} decimals, amounts at ${report.precision.stock}; report.json keeps the exact values. ${esc(report.sampling)}.${esc(riskNote(report))}</p>
<p class="note" id="fill-model-line">${esc(reportFillModelLine(report))}</p>
${figureRows(report)}
<h2>Price and own fills</h2><div class="chart"><canvas id="price"></canvas></div>
<h2>Strategy PnL over holding the starting balances (band between fill assumptions)</h2><div class="chart"><canvas id="equity"></canvas></div>
<h2>Inventory (stock total)</h2><div class="chart"><canvas id="inventory"></canvas></div>
<h2>Fills</h2>
${fillsTable(report.lanes, report.precision)}
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
