/**
 * `DIR/sweep.html`: one self-contained page (inline CSS and SVG, no script, no network): the best trials with
 * their parameters and both lanes' figures, the objective against each parameter, a heat map when the space is a
 * two-parameter grid, and in-sample against out-of-sample per walk-forward fold.
 */
import type { ReportTrial, SweepReport } from './sweep-report.js';
import { HEADLINE } from './sweep-report.js';

/** Escaped text of a value: sweep parameters and figures are strings, numbers and booleans; anything else as JSON. */
const esc = (s: unknown): string => textOf(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const textOf = (s: unknown): string =>
  s === null || s === undefined ? '' : typeof s === 'string' ? s : typeof s === 'number' || typeof s === 'boolean' || typeof s === 'bigint' ? String(s) : (JSON.stringify(s) ?? '');
const num = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : Number.isInteger(v) ? String(v) : v.toPrecision(6));
const W = 420;
const H = 220;
const PAD = 40;

function scale(vals: readonly number[]): (v: number) => number {
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  return (v) => (hi === lo ? 0.5 : (v - lo) / (hi - lo));
}

/** Objective (y) against one parameter (x); rejected trials in grey. Lists without numbers use their order. */
function scatter(r: SweepReport, path: string, trials: readonly ReportTrial[]): string {
  const pts = trials.filter((t) => t.objective !== null && t.status !== 'failed');
  if (pts.length === 0) return '';
  const dim = r.space.find((d) => d.path === path);
  const raw = pts.map((t) => t.params[path]);
  const numeric = raw.every((v) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)));
  const xs = numeric ? raw.map((v) => (dim?.log ? Math.log(Number(v)) : Number(v))) : raw.map((v) => dim?.values?.findIndex((x) => String(x) === String(v)) ?? 0);
  const ys = pts.map((t) => t.objective!);
  const fx = scale(xs);
  const fy = scale(ys);
  const dots = pts
    .map((t, i) => {
      const cx = PAD + fx(xs[i]!) * (W - 2 * PAD);
      const cy = H - PAD - fy(ys[i]!) * (H - 2 * PAD);
      return `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="4" class="${t.status}"><title>${esc(path)} = ${esc(raw[i])}: ${num(ys[i])}</title></circle>`;
    })
    .join('');
  return `<figure><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}"><line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}"/><line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}"/>
<text x="${PAD}" y="${PAD - 8}">${num(Math.max(...ys))}</text><text x="${PAD}" y="${H - 8}">${num(Math.min(...ys))}</text>
<text x="${W - PAD}" y="${H - 22}" text-anchor="end">${esc(path)}${dim?.log ? ' (log)' : ''}</text>
<text x="${W - PAD}" y="${H - 8}" text-anchor="end">${esc(numeric ? raw[xs.indexOf(Math.max(...xs))] : (dim?.values?.at(-1) ?? ''))}</text>
<text x="${PAD + 60}" y="${H - 8}">${esc(numeric ? raw[xs.indexOf(Math.min(...xs))] : (dim?.values?.[0] ?? ''))}</text>${dots}</svg></figure>`;
}

function heatMap(r: SweepReport, trials: readonly ReportTrial[], title = ''): string {
  const [a, b] = r.space;
  if (r.space.length !== 2 || r.sampler['kind'] !== 'grid' || !a?.values || !b?.values) return '';
  const cell = new Map(trials.map((t) => [`${String(t.params[a.path])}|${String(t.params[b.path])}`, t]));
  const vals = trials.filter((t) => t.status === 'ok' && t.objective !== null).map((t) => t.objective!);
  const f = vals.length > 0 ? scale(vals) : () => 0.5;
  const sign = r.objective.direction === 'maximize' ? 1 : -1;
  const rows = a.values
    .map((va) => {
      const tds = b.values!
        .map((vb) => {
          const t = cell.get(`${String(va)}|${String(vb)}`);
          if (!t || t.status === 'failed') return `<td class="na">${t ? 'failed' : ''}</td>`;
          if (t.status === 'rejected') return `<td class="na" title="${esc(t.broken?.join('; '))}">${num(t.objective)} ✗</td>`;
          const g = sign > 0 ? f(t.objective!) : 1 - f(t.objective!);
          return `<td style="background:hsl(${Math.round(g * 120)},65%,80%)">${num(t.objective)}</td>`;
        })
        .join('');
      return `<tr><th>${esc(va)}</th>${tds}</tr>`;
    })
    .join('');
  return `<h2>Heat map: ${esc(r.objective.figure)}${title}</h2><table class="heat"><tr><th>${esc(a.path)} ↓ / ${esc(b.path)} →</th>${b.values.map((v) => `<th>${esc(v)}</th>`).join('')}</tr>${rows}</table><p class="note">green = better; ✗ = broke a constraint</p>`;
}

function trialRow(t: ReportTrial, paths: readonly string[], lanes: readonly string[]): string {
  const cell = (v: unknown): string => (typeof v === 'number' ? num(v) : esc(v ?? '–'));
  const figs = lanes.flatMap((l) => ['tradingPnl', 'fills', 'maxDrawdown'].map((k) => `<td>${cell(t.lanes[l]?.[k])}</td>`));
  return `<tr><td>${t.fold}</td><td>${num(t.objective)}</td>${paths.map((p) => `<td>${esc(t.params[p])}</td>`).join('')}${figs.join('')}<td class="key">${esc(t.key.slice(0, 12))}</td></tr>`;
}

function folds(r: SweepReport): string {
  if (r.folds.length <= 1 && r.folds[0]?.outOfSample === null) return '';
  const rows = r.folds
    .map((f) => `<tr><td>${f.index}</td><td>${f.inSample ? `${new Date(f.inSample.from).toISOString()} → ${new Date(f.inSample.to).toISOString()}` : ''}</td><td>${num(f.best?.objective)}</td><td>${num(f.outOfSampleResult?.objective)}</td><td>${f.outOfSampleResult?.status ?? '–'}</td><td>${esc(f.best ? Object.entries(f.best.params).map(([k, v]) => `${k}=${String(v)}`).join(', ') : 'no trial met the constraints')}</td></tr>`)
    .join('');
  const vals = r.folds.flatMap((f) => [f.best?.objective, f.outOfSampleResult?.objective]).filter((v): v is number => typeof v === 'number');
  const lo = Math.min(0, ...vals);
  const hi = Math.max(0, ...vals);
  const y = (v: number): number => H - PAD - ((v - lo) / (hi - lo || 1)) * (H - 2 * PAD);
  const bw = (W - 2 * PAD) / Math.max(r.folds.length, 1) / 3;
  const bars = r.folds
    .map((f, i) => {
      const x = PAD + i * 3 * bw;
      const bar = (v: number | null | undefined, dx: number, cls: string): string => (typeof v === 'number' ? `<rect x="${(x + dx).toFixed(1)}" y="${Math.min(y(v), y(0)).toFixed(1)}" width="${bw.toFixed(1)}" height="${Math.abs(y(v) - y(0)).toFixed(1)}" class="${cls}"><title>fold ${f.index} ${cls}: ${num(v)}</title></rect>` : '');
      return bar(f.best?.objective, 0, 'is') + bar(f.outOfSampleResult?.objective, bw, 'oos') + `<text x="${(x + bw).toFixed(1)}" y="${H - 8}" text-anchor="middle">${f.index}</text>`;
    })
    .join('');
  return `<h2>Walk-forward: in-sample against out-of-sample</h2><figure><svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}"><line x1="${PAD}" y1="${y(0).toFixed(1)}" x2="${W - PAD}" y2="${y(0).toFixed(1)}"/>${bars}</svg><figcaption><span class="sw is"></span> in-sample best <span class="sw oos"></span> out-of-sample</figcaption></figure>
<table><tr><th>fold</th><th>in-sample window</th><th>in-sample ${esc(r.objective.figure)}</th><th>out-of-sample</th><th>status</th><th>chosen parameters</th></tr>${rows}</table>
<p class="note">A large drop from in-sample to out-of-sample is over-fitting: the parameters fit the window they were chosen on.</p>`;
}

export function renderSweepHtml(r: SweepReport): string {
  const paths = r.space.map((d) => d.path);
  const lanes = [...new Set(r.trials.flatMap((t) => Object.keys(t.lanes)))].sort().reverse();
  const search = r.trials.filter((t) => t.phase === 'search');
  const failed = search.filter((t) => t.status === 'failed');
  const head = `<tr><th>fold</th><th>${esc(r.objective.figure)}</th>${paths.map((p) => `<th>${esc(p)}</th>`).join('')}${lanes.flatMap((l) => ['tradingPnl', 'fills', 'maxDrawdown'].map((k) => `<th>${l} ${k}</th>`)).join('')}<th>key</th></tr>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>sweep: ${esc(r.sweep)}</title><style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}
th{background:#f3f3f3}.key{font-family:monospace;color:#777}.note{color:#666}figure{display:inline-block;margin:6px}svg{background:#fafafa;border:1px solid #ddd}
svg line{stroke:#888}svg text{font-size:11px;fill:#555}circle.ok{fill:#2b6cb0;opacity:.75}circle.rejected{fill:#bbb}rect.is,.sw.is{fill:#2b6cb0;background:#2b6cb0}rect.oos,.sw.oos{fill:#dd6b20;background:#dd6b20}
.sw{display:inline-block;width:10px;height:10px}td.na{color:#999;background:#f4f4f4}.warn{color:#b7791f}</style></head><body>
<h1>Sweep ${esc(r.sweep)}</h1>
<p>base ${esc(r.base)}; data ${r.data.map((d) => `${esc(d.path)} <span class="key">sha256 ${esc(d.sha256.slice(0, 16))}…</span>`).join(', ')}<br>
sampler ${esc(JSON.stringify(r.sampler))}; objective <b>${esc(r.objective.direction)} ${esc(r.objective.figure)}</b>; constraints ${esc(r.constraints.join(', ') || 'none')}<br>
<span id="fill-model-line">${esc(r.fillModelLine)}</span><br>
${r.counts.trials} trials: ${r.counts.ok} ok, ${r.counts.rejected} rejected by constraints, ${r.counts.failed} failed; ${esc(r.executor)}, ${r.elapsedSec} s${r.interrupted ? ' <b class="warn">(interrupted: finished trials only)</b>' : ''}</p>
<h2>Best trials</h2><table>${head}${r.best.map((t) => trialRow(t, paths, lanes)).join('')}</table>
<h2>${esc(r.objective.figure)} against each parameter</h2>${paths.map((p) => scatter(r, p, search)).join('')}
${heatMap(r, search.filter((t) => t.fold === 0), r.folds.length > 1 ? ' (fold 0)' : '')}${folds(r)}
${failed.length > 0 ? `<h2>Failed trials</h2><table><tr><th>fold</th><th>index</th><th>error</th></tr>${failed.map((t) => `<tr><td>${t.fold}</td><td>${t.index}</td><td style="text-align:left">${esc(t.error)}</td></tr>`).join('')}</table>` : ''}
<p class="note">Figures per lane: ${HEADLINE.join(', ')} in sweep.json; every trial's line in trials.jsonl.</p></body></html>
`;
}
