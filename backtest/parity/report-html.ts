/**
 * `parity.html`: one self-contained page for a parity report (parity.json): the summary line, live against each lane
 * (fills matched, missed and extra, the fill-time error, orders, PnL and the band), three charts (the recorded mid
 * with live and replayed fills; the fill-time error in snapshots; execution quality and markouts), the execution
 * quality of every live fill, every live order, and the fit when there is one. Chart.js is inlined from
 * node_modules as in the backtest report, so the file opens offline.
 */
import { chartJsSource } from '../report/html-report.js';
import { byFit } from './fit.js';
import type { Edge } from './markout.js';
import type { ParityReport } from './report-json.js';

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');
const num = (v: number | null | undefined, digits = 4): string =>
  v === null || v === undefined ? '–' : Number.isInteger(v) ? String(v) : v.toPrecision(digits);
const pct = (v: number | null): string => (v === null ? '–' : `${(v * 100).toFixed(1)} %`);
const time = (t: number | null): string => (t === null ? '–' : new Date(t).toISOString().slice(11, 23));
const bps = (e: Edge | null): string => (e === null ? '–' : e.bps.toFixed(2));
const MAX_ROWS = 2000;

function laneTable(r: ParityReport): string {
  const lanes = r.lanes;
  const row = (label: string, live: string, cells: readonly string[]): string =>
    `<tr><td>${esc(label)}</td><td>${live}</td>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
  const each = (f: (l: (typeof lanes)[number]) => string): string[] => lanes.map(f);
  const te = (f: (t: (typeof lanes)[number]['timeErrors']) => number | null): string[] => each((l) => num(f(l.timeErrors)));
  return `<table id="lanes"><tr><th></th><th>live</th>${lanes.map((l) => `<th>${esc(l.assumption)}</th>`).join('')}</tr>
${row(
  'fills',
  String(r.live.fills),
  each((l) => String(l.fills.replay)),
)}
${row(
  'live fills matched (share)',
  '',
  each((l) => `<span data-lane="${esc(l.assumption)}" data-matched="${l.fills.matched}">${l.fills.matched}</span> (${pct(l.fills.matchedShare)})`),
)}
${row(
  'missed: live filled, the lane did not',
  '',
  each((l) => String(l.fills.missed)),
)}
${row(
  'extra: the lane filled, live did not',
  '',
  each((l) => String(l.fills.extra)),
)}
${row(
  'amount filled / matched / missed / extra',
  esc(r.live.amount),
  each((l) => esc(`${l.fills.amounts.replay} / ${l.fills.amounts.matched} / ${l.fills.amounts.missed} / ${l.fills.amounts.extra}`)),
)}
${row(
  'fill-time error, ms: median (p10 … p90)',
  '',
  each((l) => `${num(l.timeErrors.medianMs)} (${num(l.timeErrors.p10Ms)} … ${num(l.timeErrors.p90Ms)})`),
)}
${row(
  'fill-time error, ms: mean |error| (min … max)',
  '',
  te((t) => t.meanAbsMs).map((m, i) => `${m} (${num(lanes[i]!.timeErrors.minMs)} … ${num(lanes[i]!.timeErrors.maxMs)})`),
)}
${row(
  'live orders placed at the same time and price',
  String(r.live.orders),
  each((l) => `${l.orders.matched} of ${l.orders.live} (lane placed ${l.orders.replay})`),
)}
${row(
  'realised PnL (before fees)',
  esc(r.live.pnl.realised),
  each((l) => esc(l.pnl.realised)),
)}
${row(
  'fees',
  esc(r.live.pnl.fees),
  each((l) => esc(l.pnl.fees)),
)}
${row(
  'unrealised at the last mid',
  esc(r.live.pnl.unrealised),
  each((l) => esc(l.pnl.unrealised)),
)}
${row(
  'net PnL',
  `<b id="live-pnl">${esc(r.live.pnl.net)}</b>`,
  each((l) => esc(l.pnl.net)),
)}
${row(
  'position at the end',
  esc(r.live.pnl.position),
  each((l) => esc(l.pnl.position)),
)}
${row(
  'engine errors',
  '',
  each((l) => (l.errors.length === 0 ? 'none' : l.errors.map(esc).join('<br>'))),
)}
</table>`;
}

/** The band as a bar with the live result marked. */
function bandFigure(r: ParityReport): string {
  const b = r.band;
  if (b.band === null) return '<p>No band (fewer than two lanes).</p>';
  const [lo, hi] = b.band.map(Number) as [number, number];
  const live = Number(r.live.pnl.net);
  const min = Math.min(lo, live);
  const max = Math.max(hi, live);
  const span = max - min || 1;
  const x = (v: number): number => 20 + ((v - min) / span) * 560;
  const verdict = b.inside === true ? 'inside' : 'outside';
  return `<p id="band" data-inside="${String(b.inside)}">Live net PnL <b>${esc(r.live.pnl.net)}</b> lies <b>${verdict}</b> the band [${esc(b.band[0])}, ${esc(b.band[1])}]${b.position === null ? '' : ` (at ${(b.position * 100).toFixed(0)} % of its width from the lower edge)`}.</p>
<svg width="600" height="46" role="img" aria-label="band"><rect x="${x(lo).toFixed(1)}" y="12" width="${Math.max(1, x(hi) - x(lo)).toFixed(1)}" height="16" fill="#cfe8e4"/>
<line x1="${x(live).toFixed(1)}" x2="${x(live).toFixed(1)}" y1="4" y2="36" stroke="${b.inside === true ? '#264653' : '#c0392b'}" stroke-width="3"/>
<text x="${x(lo).toFixed(1)}" y="44" font-size="10">${esc(b.band[0])}</text><text x="${x(hi).toFixed(1)}" y="44" font-size="10" text-anchor="end">${esc(b.band[1])}</text></svg>`;
}

function qualityTable(r: ParityReport): string {
  const s = r.quality.summary.measures;
  const head = '<tr><th></th><th>at the decision</th><th>at the fill</th><th>markout +1 s</th><th>+10 s</th><th>+60 s</th></tr>';
  const keys = ['atDecision', 'atFill', '1s', '10s', '60s'] as const;
  const mean = `<tr><td>mean, bps (fills measured)</td>${keys.map((k) => `<td>${num(s[k].meanBps)} (${s[k].n})</td>`).join('')}</tr>`;
  const money = `<tr><td>money (Σ edge × amount)</td>${keys.map((k) => `<td>${esc(s[k].money)}</td>`).join('')}</tr>`;
  const rows = r.quality.fills
    .slice(0, MAX_ROWS)
    .map(
      (f) =>
        `<tr><td>${time(f.t)}</td><td>${esc(f.side)}</td><td>${esc(f.role)}</td><td>${esc(f.price)}</td><td>${esc(f.amount)}</td><td>${bps(f.atDecision)}</td><td>${bps(f.atFill)}</td><td>${bps(f.markouts['1s'])}</td><td>${bps(f.markouts['10s'])}</td><td>${bps(f.markouts['60s'])}</td></tr>`,
    )
    .join('');
  return `<table>${head}${mean}${money}</table>
<details><summary>Every live fill (${r.quality.fills.length})</summary><table id="fills"><tr><th>time (UTC)</th><th>side</th><th>role</th><th>price</th><th>amount</th><th>vs mid at decision, bps</th><th>vs mid at fill, bps</th><th>+1 s</th><th>+10 s</th><th>+60 s</th></tr>${rows}</table>${r.quality.fills.length > MAX_ROWS ? `<p class="note">first ${MAX_ROWS} shown; parity.json has all</p>` : ''}</details>`;
}

function ordersTable(r: ParityReport): string {
  const lanes = r.lanes.map((l) => l.assumption);
  const head = `<tr><th>placed (UTC)</th><th>strategy</th><th>side</th><th>price</th><th>amount</th><th>live filled (first)</th>${lanes.map((l) => `<th>${esc(l)}: placed Δt ms</th><th>${esc(l)}: filled (first)</th>`).join('')}</tr>`;
  const rows = r.orders
    .slice(0, MAX_ROWS)
    .map((o) => {
      const cells = lanes.map((l) => {
        const x = o.lanes[l]!;
        return x.placed
          ? `<td>${num(x.placedDtMs)}</td><td>${esc(x.filled ?? '0')} (${time(x.firstFillT)})</td>`
          : '<td class="na">not placed</td><td class="na">–</td>';
      });
      return `<tr><td>${time(o.t)}</td><td>${esc(o.strategyId)}</td><td>${esc(o.side)}</td><td>${esc(o.price)}</td><td>${esc(o.amount)}</td><td>${esc(o.filled)} (${time(o.firstFillT)})</td>${cells.join('')}</tr>`;
    })
    .join('');
  return `<details><summary>Every live order (${r.orders.length}): placed at the same time and price in the replay? filled? when, how much?</summary><table id="orders">${head}${rows}</table>${r.orders.length > MAX_ROWS ? `<p class="note">first ${MAX_ROWS} shown; parity.json has all</p>` : ''}</details>`;
}

function fitSection(r: ParityReport): string {
  const f = r.fit;
  if (f === null) return '';
  const rows = [...f.candidates]
    .sort(byFit)
    .map(
      (c, i) =>
        `<tr${i === 0 ? ' class="best"' : ''}><td>${c.queueAhead}</td><td>${c.decreaseTrades}</td><td>${c.loss.toFixed(4)}</td><td>${c.matched}</td><td>${c.missed}</td><td>${c.extra}</td><td>${num(c.meanAbsMs)}</td></tr>`,
    )
    .join('');
  return `<h2>Fit of the fill model</h2>
<p id="fit">Chosen: <b>queueAhead ${f.best.queueAhead}, decreaseTrades ${f.best.decreaseTrades}</b>, loss ${f.bestLoss.toFixed(4)} (defaults: ${f.defaultLoss.toFixed(4)}); the comparison above uses it. Loss minimised: ${esc(f.loss)}. fill-model.yaml beside this page holds the block for a backtest or sweep config.</p>
<table><tr><th>queueAhead</th><th>decreaseTrades</th><th>loss</th><th>matched</th><th>missed</th><th>extra</th><th>mean |time error| ms</th></tr>${rows}</table>`;
}

export function renderParityHtml(r: ParityReport, chartJs: string = chartJsSource()): string {
  const t0 = r.series.t[0] ?? 0;
  const min = (t: number): number => (t - t0) / 60_000;
  const pts = (fills: readonly { t: number; side: string; price: string }[], side: string) =>
    fills.filter((f) => f.side === side).map((f) => ({ x: min(f.t), y: Number(f.price) }));
  const data = {
    mid: r.series.t.map((t, i) => ({ x: min(t), y: r.series.mid[i] })),
    fills: [
      { label: 'live', buys: pts(r.quality.fills, 'buy'), sells: pts(r.quality.fills, 'sell') },
      ...Object.entries(r.laneFills).map(([lane, fills]) => ({ label: lane, buys: pts(fills, 'buy'), sells: pts(fills, 'sell') })),
    ],
    errors: {
      labels: ['≤ −2', '−1', '0', '+1', '≥ +2'],
      lanes: r.lanes.map((l) => ({ label: l.assumption, counts: (['-2', '-1', '0', '1', '2'] as const).map((k) => l.timeErrors.bySnapshots[k]) })),
    },
    quality: (['atDecision', 'atFill', '1s', '10s', '60s'] as const).map((k) => r.quality.summary.measures[k].meanBps ?? 0),
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parity ${esc(r.market)} ${esc(r.start)}</title>
<style>body{font:14px system-ui,sans-serif;margin:24px;max-width:1200px;color:#222}table{border-collapse:collapse;margin:12px 0}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child{text-align:left}th{background:#f3f3f3}.chart{height:320px;margin:24px 0}
p.note{color:#555;max-width:900px}code{background:#f4f4f4;padding:2px 4px}td.na{color:#999}tr.best td{background:#e6f4ea;font-weight:600}</style></head><body>
<h1>Parity: ${esc(r.market)}</h1>
<p id="summary"><code>${esc(r.summary.line)}</code></p>
<p>Session ${esc(r.start)} → ${esc(r.end)} (${r.durationSec.toFixed(0)} s; strategies ${esc(r.strategies.join(', '))}${r.runs > 1 ? `; the last of ${r.runs} runs in the journal` : ''}).<br>
journal ${esc(r.journal)}; config ${esc(r.config)}; data ${r.dataFiles.map(esc).join(', ')}</p>
<p class="note">The session replayed through the backtester with its own config, starting balances and span, on the books it recorded, one lane per fill assumption.
Fills are matched by strategy, side and price within one snapshot (${r.windowMs} ms); replayed latency ${r.latency.requestMs} + ${r.latency.responseMs} ms (half the median time to the venue's answer each way).
PnL by the engine's ledger, marked at the session's last mid (${esc(r.mark ?? '–')}). In the summary line, missed = live fills no lane made, extra = pessimistic fills live did not make.<br>
<span id="fill-model-line">${esc(r.fillModelLine)}</span>${r.notReplayed.length > 0 ? `<br>Not replayed: ${esc(r.notReplayed.join('; '))}` : ''}</p>
${laneTable(r)}
<h2>Live PnL against the band</h2>${bandFigure(r)}
<h2>Recorded mid, live and replayed fills</h2><div class="chart"><canvas id="price"></canvas></div>
<h2>Fill-time error of matched fills (replay − live, in snapshots)</h2><div class="chart" style="height:240px"><canvas id="errors"></canvas></div>
<h2>Execution quality of the live fills</h2>
<p class="note">Positive = good for the account: bought below the mid (sold above), or the mid moved our way after the fill (markout).</p>
<div class="chart" style="height:240px"><canvas id="quality"></canvas></div>
${qualityTable(r)}
${ordersTable(r)}
${fitSection(r)}
<script>${chartJs}</script>
<script>
const D = ${scriptJson(data)};
const base = { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { position: 'bottom' } } };
const colors = { live: '#264653', pessimistic: '#e76f51', optimistic: '#2a9d8f' };
const marker = (label) => label === 'live'
  ? { backgroundColor: 'rgba(0,0,0,0)', borderColor: colors.live, borderWidth: 2, pointRadius: 8 }
  : { backgroundColor: colors[label] || '#333', borderWidth: 0, pointRadius: 4 };
const drawn = (id, n) => document.getElementById(id).setAttribute('data-points', String(n));
new Chart(document.getElementById('price'), { type: 'line', options: { ...base, parsing: false, normalized: true,
  scales: { x: { type: 'linear', title: { display: true, text: 'minutes from start' } } } }, data: { datasets: [
  { label: 'mid', data: D.mid, borderColor: '#999', borderWidth: 1, pointRadius: 0 },
  // live hollow and larger, drawn over the lanes' filled markers: a matched fill shows as a filled marker in a ring
  ...D.fills.flatMap((f) => [
    { type: 'scatter', label: f.label + ' buys', data: f.buys, pointStyle: 'triangle', ...marker(f.label) },
    { type: 'scatter', label: f.label + ' sells', data: f.sells, pointStyle: 'rectRot', ...marker(f.label) },
  ]),
] } });
drawn('price', D.mid.length);
new Chart(document.getElementById('errors'), { type: 'bar', options: base, data: { labels: D.errors.labels,
  datasets: D.errors.lanes.map((l) => ({ label: l.label, data: l.counts, backgroundColor: colors[l.label] || '#333' })) } });
drawn('errors', D.errors.lanes.length);
new Chart(document.getElementById('quality'), { type: 'bar', options: base, data: { labels: ['vs mid at decision', 'vs mid at fill', 'markout +1 s', '+10 s', '+60 s'],
  datasets: [{ label: 'mean, bps', data: D.quality, backgroundColor: D.quality.map((v) => (v >= 0 ? '#2a9d8f' : '#e76f51')) }] } });
drawn('quality', D.quality.length);
</script></body></html>
`;
}
