/**
 * `DIR/sweep.html`: one self-contained page (inline CSS and SVG, no script, no network): the best trials with
 * their parameters and both lanes' figures, the objective against each parameter, a heat map when the space is a
 * two-parameter grid, and in-sample against out-of-sample per walk-forward fold.
 */
import type { ReportTrial, SweepReport } from './sweep-report.js';
import { HEADLINE } from './sweep-report.js';
import { axesSvg, niceDomain, tickLabel } from './svg-axes.js';

/** Escaped text of a value: sweep parameters and figures are strings, numbers and booleans; anything else as JSON. */
const esc = (s: unknown): string => textOf(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const textOf = (s: unknown): string =>
  s === null || s === undefined
    ? ''
    : typeof s === 'string'
      ? s
      : typeof s === 'number' || typeof s === 'boolean' || typeof s === 'bigint'
        ? String(s)
        : (JSON.stringify(s) ?? '');
const num = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : Number.isInteger(v) ? String(v) : v.toPrecision(6));
const W = 420;
const H = 220;
const PAD = 40;
const PLOT_W = 460;
const PLOT_H = 260;

function scale(vals: readonly number[]): (v: number) => number {
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  return (v) => (hi === lo ? 0.5 : (v - lo) / (hi - lo));
}

/** Objective (y) against one parameter (x), with tick labels on both axes; rejected trials in grey. Lists without numbers use their order. */
function scatter(r: SweepReport, path: string, trials: readonly ReportTrial[]): string {
  const pts = trials.filter((t) => t.objective !== null && t.status !== 'failed');
  if (pts.length === 0) return '';
  const dim = r.space.find((d) => d.path === path);
  const raw = pts.map((t) => t.params[path]);
  const numeric = raw.every((v) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)));
  const xs = numeric
    ? raw.map((v) => (dim?.log ? Math.log(Number(v)) : Number(v)))
    : raw.map((v) => dim?.values?.findIndex((x) => String(x) === String(v)) ?? 0);
  const ys = pts.map((t) => t.objective!);
  const yd = niceDomain(Math.min(...ys), Math.max(...ys), 4);
  const fy = (v: number): number => (v - yd.lo) / (yd.hi - yd.lo);
  const x = xAxis(dim?.values, raw, xs, numeric, dim?.log === true);
  const area = { width: PLOT_W, height: PLOT_H, left: 64, right: 18, top: 12, bottom: 44 };
  const px = (f: number): number => area.left + f * (PLOT_W - area.left - area.right);
  const py = (f: number): number => PLOT_H - area.bottom - f * (PLOT_H - area.top - area.bottom);
  const dots = pts
    .map(
      (t, i) =>
        `<circle cx="${px(x.at(xs[i]!)).toFixed(1)}" cy="${py(fy(ys[i]!)).toFixed(1)}" r="4" class="${t.status}"><title>${esc(path)} = ${esc(raw[i])}: ${num(ys[i])}</title></circle>`,
    )
    .join('');
  const yTicks = yd.ticks.map((v) => ({ at: fy(v), label: tickLabel(v, yd.ticks) }));
  const axes = axesSvg(area, { ticks: x.ticks, title: `${shortPath(path)}${dim?.log ? ' (log scale)' : ''}` }, { ticks: yTicks, title: r.objective.figure });
  return `<figure><svg viewBox="0 0 ${PLOT_W} ${PLOT_H}" width="${PLOT_W}" height="${PLOT_H}">${axes}${dots}</svg></figure>`;
}

/** The x axis of a scatter: each value of a short list as its own tick, nice round ticks otherwise. */
function xAxis(
  values: readonly unknown[] | undefined,
  raw: readonly unknown[],
  xs: readonly number[],
  numeric: boolean,
  log: boolean,
): { at: (x: number) => number; ticks: { at: number; label: string }[] } {
  if (!numeric) {
    const labels = values?.map((v) => textOf(v)) ?? [...new Set(raw.map((v) => textOf(v)))];
    const n = Math.max(labels.length, 1);
    const at = (i: number): number => (i + 0.5) / n;
    return { at, ticks: labels.map((label, i) => ({ at: at(i), label })) };
  }
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const distinct = [...new Map(xs.map((v, i) => [v, raw[i]])).entries()].sort((a, b) => a[0] - b[0]);
  if (distinct.length <= 8) {
    // a little room either side, so the first and last column of dots is not on an axis
    const pad = hi === lo ? 1 : (hi - lo) * 0.08;
    const at = (v: number): number => (v - (lo - pad)) / (hi - lo + 2 * pad);
    return { at, ticks: distinct.map(([v, label]) => ({ at: at(v), label: textOf(label) })) };
  }
  const d = niceDomain(lo, hi, 5);
  const at = (v: number): number => (v - d.lo) / (d.hi - d.lo);
  return { at, ticks: d.ticks.map((v) => ({ at: at(v), label: log ? Number(Math.exp(v).toPrecision(3)).toString() : tickLabel(v, d.ticks) })) };
}

/** A parameter's path as a column or axis title: `spread` for `strategies[0].params.spread` (the full path in a tooltip). */
function shortPath(path: string): string {
  const m = /\.params\.(.+)$/.exec(path);
  return m ? m[1]! : path;
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
      const tds = b
        .values!.map((vb) => {
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
  return `<h2>Heat map: ${esc(r.objective.figure)}${title}</h2><table class="heat"><tr><th title="${esc(a.path)} / ${esc(b.path)}">${esc(shortPath(a.path))} ↓ / ${esc(shortPath(b.path))} →</th>${b.values.map((v) => `<th>${esc(v)}</th>`).join('')}</tr>${rows}</table><p class="note">green = better; ✗ = broke a constraint</p>`;
}

/** The lane figures of the best-trials table. */
const TABLE_FIGURES = ['tradingPnl', 'fills', 'maxDrawdown'] as const;

/** Where the objective is one of the table's lane figures, that column (marked), else its own column. */
function objectiveColumn(r: SweepReport, lanes: readonly string[]): { lane: string; figure: string } | undefined {
  const m = /^(?:(\w+)\.)?(\w+)$/.exec(r.objective.figure);
  const lane = m?.[1] ?? 'pessimistic';
  const figure = m?.[2] ?? '';
  return lanes.includes(lane) && (TABLE_FIGURES as readonly string[]).includes(figure) ? { lane, figure } : undefined;
}

/** A figure cell: numbers (and the exact decimal strings of the figures) at 6 significant digits. */
function figureCell(v: unknown): string {
  const short = (n: number): string => (Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6))));
  if (typeof v === 'number') return short(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(v)) return short(Number(v));
  return esc(v ?? '–');
}

function bestTrials(r: SweepReport, paths: readonly string[], lanes: readonly string[]): string {
  const withFolds = r.folds.length > 1;
  const inTable = objectiveColumn(r, lanes);
  const isObjective = (lane: string, k: string): boolean => inTable !== undefined && inTable.lane === lane && inTable.figure === k;
  const head =
    `<tr>${withFolds ? '<th>fold</th>' : ''}${inTable ? '' : `<th class="objective">${esc(r.objective.figure)}<br>(objective)</th>`}` +
    paths.map((p) => `<th title="${esc(p)}">${esc(shortPath(p))}</th>`).join('') +
    lanes
      .flatMap((l) =>
        TABLE_FIGURES.map(
          (k) => `<th${isObjective(l, k) ? ' class="objective"' : ''}>${esc(l)}<br>${esc(k)}${isObjective(l, k) ? '<br>(objective)' : ''}</th>`,
        ),
      )
      .join('') +
    '<th>key</th></tr>';
  const rows = r.best.map(
    (t) =>
      `<tr>${withFolds ? `<td>${t.fold}</td>` : ''}${inTable ? '' : `<td class="objective">${num(t.objective)}</td>`}` +
      paths.map((p) => `<td>${esc(t.params[p])}</td>`).join('') +
      lanes.flatMap((l) => TABLE_FIGURES.map((k) => `<td${isObjective(l, k) ? ' class="objective"' : ''}>${figureCell(t.lanes[l]?.[k])}</td>`)).join('') +
      `<td class="key">${esc(t.key.slice(0, 12))}</td></tr>`,
  );
  return `<table class="best">${head}${rows.join('')}</table>`;
}

function folds(r: SweepReport): string {
  if (r.folds.length <= 1 && r.folds[0]?.outOfSample === null) return '';
  const rows = r.folds
    .map(
      (f) =>
        `<tr><td>${f.index}</td><td>${f.inSample ? `${new Date(f.inSample.from).toISOString()} → ${new Date(f.inSample.to).toISOString()}` : ''}</td><td>${num(f.best?.objective)}</td><td>${num(f.outOfSampleResult?.objective)}</td><td>${f.outOfSampleResult?.status ?? '–'}</td><td>${esc(
          f.best
            ? Object.entries(f.best.params)
                .map(([k, v]) => `${k}=${String(v)}`)
                .join(', ')
            : 'no trial met the constraints',
        )}</td></tr>`,
    )
    .join('');
  const vals = r.folds.flatMap((f) => [f.best?.objective, f.outOfSampleResult?.objective]).filter((v): v is number => typeof v === 'number');
  const lo = Math.min(0, ...vals);
  const hi = Math.max(0, ...vals);
  const y = (v: number): number => H - PAD - ((v - lo) / (hi - lo || 1)) * (H - 2 * PAD);
  const bw = (W - 2 * PAD) / Math.max(r.folds.length, 1) / 3;
  const bars = r.folds
    .map((f, i) => {
      const x = PAD + i * 3 * bw;
      const bar = (v: number | null | undefined, dx: number, cls: string): string =>
        typeof v === 'number'
          ? `<rect x="${(x + dx).toFixed(1)}" y="${Math.min(y(v), y(0)).toFixed(1)}" width="${bw.toFixed(1)}" height="${Math.abs(y(v) - y(0)).toFixed(1)}" class="${cls}"><title>fold ${f.index} ${cls}: ${num(v)}</title></rect>`
          : '';
      return (
        bar(f.best?.objective, 0, 'is') +
        bar(f.outOfSampleResult?.objective, bw, 'oos') +
        `<text x="${(x + bw).toFixed(1)}" y="${H - 8}" text-anchor="middle">${f.index}</text>`
      );
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
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>sweep: ${esc(r.sweep)}</title><style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px;overflow-wrap:anywhere}table{border-collapse:collapse;margin:8px 0;max-width:100%}td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}
th{background:#f3f3f3}.key{font-family:monospace;color:#777}.note{color:#666}figure{display:inline-block;margin:6px}svg{background:#fafafa;border:1px solid #ddd}
svg line{stroke:#888}svg line.grid{stroke:#e4e4e4}svg text{font-size:11px;fill:#555}svg text.title{font-size:12px;fill:#333}.objective{font-weight:bold}circle.ok{fill:#2b6cb0;opacity:.75}circle.rejected{fill:#bbb}rect.is,.sw.is{fill:#2b6cb0;background:#2b6cb0}rect.oos,.sw.oos{fill:#dd6b20;background:#dd6b20}
.sw{display:inline-block;width:10px;height:10px}td.na{color:#999;background:#f4f4f4}.warn{color:#b7791f}</style></head><body>
<h1>Sweep ${esc(r.sweep)}</h1>
<p>base ${esc(r.base)}; data ${r.data.map((d) => `${esc(d.path)} <span class="key">sha256 ${esc(d.sha256.slice(0, 16))}…</span>`).join(', ')}<br>
sampler ${esc(JSON.stringify(r.sampler))}; objective <b>${esc(r.objective.direction)} ${esc(r.objective.figure)}</b>; constraints ${esc(r.constraints.join(', ') || 'none')}<br>
<span id="fill-model-line">${esc(r.fillModelLine)}</span><br>
${r.counts.trials} trials: ${r.counts.ok} ok, ${r.counts.rejected} rejected by constraints, ${r.counts.failed} failed; ${esc(r.executor)}, ${r.elapsedSec} s${r.interrupted ? ' <b class="warn">(interrupted: finished trials only)</b>' : ''}</p>
<h2>Best trials</h2>${bestTrials(r, paths, lanes)}
<h2>${esc(r.objective.figure)} against each parameter</h2>${paths.map((p) => scatter(r, p, search)).join('')}
${heatMap(
  r,
  search.filter((t) => t.fold === 0),
  r.folds.length > 1 ? ' (fold 0)' : '',
)}${folds(r)}
${failed.length > 0 ? `<h2>Failed trials</h2><table><tr><th>fold</th><th>index</th><th>error</th></tr>${failed.map((t) => `<tr><td>${t.fold}</td><td>${t.index}</td><td style="text-align:left">${esc(t.error)}</td></tr>`).join('')}</table>` : ''}
<p class="note">Figures per lane: ${HEADLINE.join(', ')} in sweep.json; every trial's line in trials.jsonl.</p></body></html>
`;
}
