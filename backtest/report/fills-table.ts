/**
 * The report's per-fill table: every fill of every lane in time order (time, lane, side, price, amount, fee,
 * maker/taker), at the market's precision. A long run has thousands; the page shows the first `max` and says where
 * the rest are (report.json has them all).
 */
import type { LaneReport } from './build-report.js';
import { fixed, type ReportPrecision } from './report-format.js';

const esc = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Fills shown on the page at most; beyond that the table says how many are left out. */
export const MAX_FILL_ROWS = 2000;

export function fillsTable(lanes: readonly LaneReport[], p: ReportPrecision, max = MAX_FILL_ROWS): string {
  const all = lanes.flatMap((l) => l.fills.map((f) => ({ lane: l.assumption, ...f })));
  if (all.length === 0) return '<p>No fills in either lane.</p>';
  // stable: equal times keep the lanes' order, and each lane its own order
  all.sort((a, b) => a.t - b.t);
  const shown = all.slice(0, max);
  const rows = shown.map(
    (f) =>
      `<tr class="${f.side}"><td>${esc(new Date(f.t).toISOString().replace('T', ' ').replace('Z', ''))}</td><td>${esc(f.lane)}</td><td>${f.side}</td>` +
      `<td>${fixed(f.price, p.money)}</td><td>${fixed(f.amount, p.stock)}</td><td>${fixed(f.fee, p.money)}</td><td>${f.role}</td></tr>`,
  );
  const more = all.length > shown.length ? `<p class="note">The first ${shown.length} of ${all.length} fills; report.json lists them all.</p>` : '';
  return (
    `<table class="fills"><thead><tr><th>time (UTC)</th><th>lane</th><th>side</th><th>price</th><th>amount</th><th>fee</th><th>maker/taker</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table>${more}`
  );
}
