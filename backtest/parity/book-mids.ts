/**
 * The recorded mids of a session: what the book said at any moment (the last snapshot received at or before it),
 * for the mid at a decision, at a fill and the markouts after it, and the recording's snapshot interval (the time
 * resolution of everything a replay can say).
 */
import { D, type Decimal } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import type { Market } from '../../src/model/market.js';
import { readRecordingLines, type MarketLine } from '../../src/recording/recording-format.js';
import { parseMarket } from '../../src/venue/parse-market.js';

const TWO = D(2);

export class BookMids {
  /** Receive times of the two-sided snapshots, ms, ascending. */
  readonly times: readonly number[];
  readonly mids: readonly Decimal[];
  constructor(times: readonly number[], mids: readonly Decimal[]) {
    this.times = times;
    this.mids = mids;
  }

  /** The mid of the last snapshot at or before `t`; undefined before the first one or after `last` + one interval. */
  at(t: number): Decimal | undefined {
    const i = this.#indexAt(t);
    if (i < 0) return undefined;
    // past the recording's end the book is not known, only remembered
    if (i === this.times.length - 1 && t - this.times[i]! > this.intervalMs) return undefined;
    return this.mids[i];
  }

  /** The median gap between snapshots, ms (one snapshot: the time resolution of a replay); 1000 with fewer than two. */
  get intervalMs(): number {
    return (this.#interval ??= medianGap(this.times));
  }
  #interval: number | undefined;

  /** Index of the last snapshot at or before `t`, -1 when none. */
  #indexAt(t: number): number {
    let lo = 0;
    let hi = this.times.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.times[mid]! <= t) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}

function medianGap(times: readonly number[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < times.length; i++) gaps.push(times[i]! - times[i - 1]!);
  if (gaps.length === 0) return 1000;
  gaps.sort((a, b) => a - b);
  return Math.max(1, gaps[Math.floor(gaps.length / 2)]!);
}

export interface RecordedSession {
  readonly market: Market;
  readonly head: MarketLine;
  readonly mids: BookMids;
}

/**
 * Reads the mids of the recordings (in order) within [from, to]; the market is the first file's. A file that is not
 * a recording or has no market record is a ConfigError naming it.
 */
export async function readBookMids(files: readonly string[], from: number, to: number): Promise<RecordedSession> {
  let head: MarketLine | undefined;
  const times: number[] = [];
  const mids: Decimal[] = [];
  for (const file of files) {
    for await (const line of readRecordingLines(file)) {
      if (line.type === 'market') {
        head ??= line;
        continue;
      }
      if (line.type !== 'book' || line.t < from) continue;
      if (line.t > to) break;
      const ask = line.book.asks[0];
      const bid = line.book.bids[0];
      if (ask === undefined || bid === undefined) continue;
      // snapshots are in time order within a file and across the files given in order; a file out of order is skipped past
      if (times.length > 0 && line.t < times[times.length - 1]!) continue;
      times.push(line.t);
      mids.push(D(ask[0]).add(D(bid[0])).div(TWO));
    }
  }
  if (head === undefined) throw new ConfigError(`parity: ${files.join(', ')}: no market record at the head (not a recording?)`);
  return { market: parseMarket(head.market, files[0]), head, mids: new BookMids(times, mids) };
}
