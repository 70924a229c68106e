import { statSync } from 'node:fs';
import { ConfigError } from '../../src/model/errors.js';
import { priceToTicks, readRecordingBatches, RecordingFormatError } from '../../src/recording/recording-format.js';

/** One stretch without a snapshot. */
export interface SnapshotGap {
  /** Receive time of the snapshot before the gap, Unix ms. */
  readonly fromT: number;
  /** Receive time of the snapshot after it. */
  readonly toT: number;
  readonly ms: number;
}

/** What `bot data info` reports about one recording. */
export interface RecordingInfo {
  readonly file: string;
  readonly market: string;
  readonly source: string | undefined;
  /** The head says the file carries every trade of its period (the fill model then trusts "no trade"). */
  readonly tradesComplete: boolean;
  /** First and last line time, Unix ms (undefined for a file with no book or trade line). */
  readonly firstT: number | undefined;
  readonly lastT: number | undefined;
  readonly spanMs: number;
  readonly snapshots: number;
  readonly trades: number;
  /** Time between consecutive snapshots, ms. */
  readonly cadence: { readonly medianMs: number | undefined; readonly maxMs: number | undefined };
  /** Intervals between snapshots longer than `thresholdMs` (twice the median cadence). */
  readonly gaps: { readonly thresholdMs: number | undefined; readonly count: number; readonly totalMs: number; readonly longest: readonly SnapshotGap[] };
  /** Snapshots whose best bid is at or above the best ask (a venue never shows one). */
  readonly crossedBooks: number;
  /** Snapshots with an empty side. */
  readonly oneSidedBooks: number;
  /** Lines whose time is before the previous line's (the format wants them in order). */
  readonly timeReversals: number;
}

const LONGEST = 5;

/**
 * Reads a recording through (the text reader: gzip JSON Lines, every member) and summarises it. One pass,
 * memory bounded by one number per snapshot (the cadence median needs them all).
 *
 * Gaps are measured against the recording's own cadence: an interval between two snapshots longer than
 * twice the median is a gap (a recorder that was down, a poll that failed, a hole in an import). Crossed
 * books compare the first level of each side in integer ticks of the market's price step.
 */
export async function recordingInfo(file: string): Promise<RecordingInfo> {
  // checked here: the reader's file stream would fail outside its pipeline (an unhandled stream error)
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the recording (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  if (!isFile) throw new ConfigError(`${file}: not a file (a recording is a .jsonl.gz file)`);
  let market: string | undefined;
  let source: string | undefined;
  let tradesComplete = false;
  let scale = 1;
  let firstT: number | undefined;
  let lastT: number | undefined;
  let prevT: number | undefined;
  let prevBookT: number | undefined;
  let snapshots = 0;
  let trades = 0;
  let crossedBooks = 0;
  let oneSidedBooks = 0;
  let timeReversals = 0;
  const intervals: number[] = [];
  const intervalStart: number[] = [];
  for await (const batch of readRecordingBatches(file)) {
    for (const line of batch) {
      if (line.type === 'market') {
        market = line.market.name;
        source = line.source;
        tradesComplete = line.trades === true;
        scale = 10 ** Number(line.market.moneyPrec);
        continue;
      }
      if (market === undefined) throw new RecordingFormatError(`${file}: a ${line.type} line before the market record`);
      firstT ??= line.t;
      lastT = lastT === undefined ? line.t : Math.max(lastT, line.t);
      if (prevT !== undefined && line.t < prevT) timeReversals += 1;
      prevT = line.t;
      if (line.type === 'trade') {
        trades += 1;
        continue;
      }
      snapshots += 1;
      if (prevBookT !== undefined) {
        intervals.push(line.t - prevBookT);
        intervalStart.push(prevBookT);
      }
      prevBookT = line.t;
      const bid = line.book.bids[0];
      const ask = line.book.asks[0];
      if (bid === undefined || ask === undefined) oneSidedBooks += 1;
      else if (priceToTicks(bid[0], scale) >= priceToTicks(ask[0], scale)) crossedBooks += 1;
    }
  }
  if (market === undefined) throw new RecordingFormatError(`${file}: no market record (not a recording)`);

  const sorted = Float64Array.from(intervals).sort();
  const medianMs =
    sorted.length === 0
      ? undefined
      : sorted.length % 2 === 1
        ? sorted[(sorted.length - 1) / 2]!
        : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const maxMs = sorted.length === 0 ? undefined : sorted[sorted.length - 1]!;
  const thresholdMs = medianMs === undefined ? undefined : 2 * medianMs;
  const found: SnapshotGap[] = [];
  let totalMs = 0;
  if (thresholdMs !== undefined) {
    for (let i = 0; i < intervals.length; i++) {
      const ms = intervals[i]!;
      if (ms <= thresholdMs) continue;
      totalMs += ms;
      found.push({ fromT: intervalStart[i]!, toT: intervalStart[i]! + ms, ms });
    }
  }
  const longest = [...found].sort((a, b) => b.ms - a.ms || a.fromT - b.fromT).slice(0, LONGEST);
  return {
    file,
    market,
    source,
    tradesComplete,
    firstT,
    lastT,
    spanMs: firstT === undefined || lastT === undefined ? 0 : lastT - firstT,
    snapshots,
    trades,
    cadence: { medianMs, maxMs },
    gaps: { thresholdMs, count: found.length, totalMs, longest },
    crossedBooks,
    oneSidedBooks,
    timeReversals,
  };
}
