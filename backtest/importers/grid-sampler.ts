/**
 * Fixed-grid snapshotting shared by every importer: the snapshot written at grid time T (t = k ×
 * interval) is the book after every message received before T, as a poller asking at T would have
 * seen it, limited to `limit` levels a side. Call `advance(t)` before applying a message received at
 * t. The first grid time is the first one after the book became a true state. Sampling pauses while the importer says the book is not a true state (out of sync, mid-snapshot)
 * and resumes at the next grid time. A crossed book is never written: it is counted instead.
 */
import type { WireLevel } from '../../src/venue/wire.js';
import type { RecordingWriter } from '../../src/recording/recording-writer.js';
import type { Level } from './book-side.js';

/** What the sampler reads: the best levels of each side and whether they cross. */
export interface SampledBook {
  top(n: number): { bids: Level[]; asks: Level[] };
  crossed(): boolean;
}

export interface GridSamplerOptions {
  readonly writer: RecordingWriter;
  readonly market: string;
  readonly intervalMs: number;
  /** Levels a side per snapshot (1-100; the contract's order book allows at most 100). */
  readonly limit: number;
}

/** "61837.63000000" → "61837.63": the venue's canonical form, and shorter lines to parse. */
export function trimDecimal(text: string): string {
  if (text.indexOf('.') < 0) return text;
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48 /* 0 */) end -= 1;
  if (text.charCodeAt(end - 1) === 46 /* . */) end -= 1;
  return text.slice(0, end);
}

function levels(src: readonly Level[]): WireLevel[] {
  return src.map(([p, q]) => [trimDecimal(p), trimDecimal(q)]);
}

export class GridSampler {
  readonly #o: GridSamplerOptions;
  #next: number | undefined;
  snapshots = 0;
  /** Grid times skipped because the book was crossed there. */
  crossed = 0;
  firstT: number | undefined;
  lastT: number | undefined;

  constructor(options: GridSamplerOptions) {
    if (!(options.intervalMs > 0)) throw new RangeError('intervalMs must be > 0');
    if (!(options.limit >= 1 && options.limit <= 100)) throw new RangeError('limit must be 1-100');
    this.#o = options;
  }

  /** Writes every grid time before `t` with `book` (undefined: the book is not a true state now). */
  advance(t: number, book: SampledBook | undefined): void {
    if (!book) {
      this.#next = undefined;
      return;
    }
    const { intervalMs, limit, writer, market } = this.#o;
    // Times are whole ms (floored), so a message stamped T may have arrived after grid time T: a grid
    // time gets the messages stamped before it, and is written once one stamped at or after it comes.
    this.#next ??= Math.floor(t / intervalMs) * intervalMs + intervalMs;
    if (this.#next > t) return;
    const crossed = book.crossed();
    const top = crossed ? undefined : book.top(limit);
    while (this.#next <= t) {
      if (top) {
        writer.write({
          type: 'book',
          t: this.#next,
          book: { ticker_id: market, timestamp: Math.floor(this.#next / 1000), asks: levels(top.asks), bids: levels(top.bids) },
        });
        this.snapshots += 1;
        this.firstT ??= this.#next;
        this.lastT = this.#next;
      } else this.crossed += 1;
      this.#next += intervalMs;
    }
  }
}
