import type { RecordingInfo } from './recording-info.js';

const iso = (t: number | undefined): string => (t === undefined ? '-' : new Date(t).toISOString());

/** 61,234 ms → "1m 1.234s"; 3,725,000 → "1h 2m 5s". */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '-';
  if (ms < 1000) return `${ms} ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const sec = h > 0 ? `${Math.round(s)}s` : `${Number(s.toFixed(3))}s`;
  return [h > 0 ? `${h}h` : '', h > 0 || m > 0 ? `${m}m` : '', sec].filter((x) => x !== '').join(' ');
}

/** The text `bot data info` prints for one recording. */
export function formatRecordingInfo(i: RecordingInfo): string {
  const lines = [
    `file       ${i.file}`,
    `market     ${i.market}${i.source === undefined ? '' : ` (source: ${i.source})`}`,
    `span       ${iso(i.firstT)} → ${iso(i.lastT)} (${formatDuration(i.spanMs)})`,
    `snapshots  ${i.snapshots}, cadence median ${formatDuration(i.cadence.medianMs)}, max ${formatDuration(i.cadence.maxMs)}`,
    `trades     ${i.trades}${i.tradesComplete ? ' (every trade of the period: the fill model trusts "no trade")' : i.trades > 0 ? '' : ' (none: the fill band is as wide as it gets)'}`,
    `gaps       ${i.gaps.count} longer than ${formatDuration(i.gaps.thresholdMs)} (2 × median), ${formatDuration(i.gaps.totalMs)} in all`,
    ...i.gaps.longest.map((g) => `             ${iso(g.fromT)} → ${iso(g.toT)} (${formatDuration(g.ms)})`),
    `crossed    ${i.crossedBooks} books (best bid >= best ask)${i.oneSidedBooks > 0 ? `; ${i.oneSidedBooks} with an empty side` : ''}`,
  ];
  if (i.timeReversals > 0) lines.push(`order      ${i.timeReversals} lines earlier than the line before (the format wants time order)`);
  return lines.join('\n');
}
