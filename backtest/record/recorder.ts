/**
 * The recorder behind `bot record`: polls one market's order book through a TradingApi (the REST
 * client, whose limiter keeps every 10 s window within the venue's allowance) at a fixed interval and
 * writes the market's rules record, then one line per snapshot with the local receive time.
 *
 * Timing: each poll is scheduled on a fixed grid from the start (start + k × interval), so slow answers
 * do not make the recording drift; a poll never overlaps the previous one (a grid point that passed
 * while waiting is skipped, not bunched). The interval must fit the order book budget (600 / 10 s):
 * anything under windowMs / limit is refused.
 */
import type { OrderBook } from '../../src/model/book.js';
import { ConfigError } from '../../src/model/errors.js';
import type { Market } from '../../src/model/market.js';
import type { TradingApi } from '../../src/venue/trading-api.js';
import { RATE_LIMITS, type OrderBookResponse, type WireMarket } from '../../src/venue/wire.js';
import { RecordingWriter } from './recording-writer.js';
import { bookRecord, marketRecord } from '../../src/sim/http/public-format.js';

export interface RecorderOptions {
  readonly api: TradingApi;
  readonly market: string;
  readonly intervalMs: number;
  /** Levels per side, 0-100 (0 = the venue's 100). */
  readonly limit?: number;
  /** Aggregation 0-5. */
  readonly level?: number;
  readonly out: string;
  readonly rotate?: { readonly maxBytes?: number; readonly maxMs?: number };
  /** Stop after this many snapshots. */
  readonly count?: number;
  /** Stop after this long (ms). */
  readonly durationMs?: number;
  /** Stops the recording (the file is closed cleanly). */
  readonly signal?: AbortSignal;
  /** Free text in the head record. */
  readonly source?: string;
  /** Clock, ms (real time by default). */
  readonly now?: () => number;
  /** A failed poll (it is retried at the next grid point). */
  readonly onError?: (error: unknown) => void;
  readonly onSnapshot?: (n: number) => void;
}

export interface RecorderResult {
  readonly snapshots: number;
  readonly errors: number;
  readonly files: readonly string[];
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, Math.max(0, ms));
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export async function recordBooks(o: RecorderOptions): Promise<RecorderResult> {
  const rl = RATE_LIMITS.orderbook;
  const minInterval = rl.windowMs / rl.limit;
  if (!(o.intervalMs >= minInterval)) {
    throw new ConfigError(`record: --interval ${o.intervalMs} ms is faster than the order book limit allows (${rl.limit} per ${rl.windowMs / 1000} s: at least ${Math.ceil(minInterval)} ms)`);
  }
  const now = o.now ?? (() => Date.now());
  const markets = await o.api.markets();
  const market = markets.find((m) => m.name === o.market);
  if (market === undefined) throw new ConfigError(`record: the venue has no market ${o.market} (it has ${markets.map((m) => m.name).join(', ')})`);
  const writer = new RecordingWriter({ out: o.out, market: marketRecord(market), ...(o.rotate ? { rotate: o.rotate } : {}), ...(o.source ? { source: o.source } : {}) });
  const start = now();
  let snapshots = 0;
  let errors = 0;
  try {
    for (let k = 0; ; k++) {
      if (o.signal?.aborted) break;
      if (o.count !== undefined && snapshots >= o.count) break;
      const due = start + k * o.intervalMs;
      if (o.durationMs !== undefined && due - start >= o.durationMs) break;
      const wait = due - now();
      if (wait < -o.intervalMs) continue; // a grid point passed while the previous poll waited: skip it
      await sleep(wait, o.signal);
      if (o.signal?.aborted) break;
      try {
        const book = await o.api.orderBook(o.market, { ...(o.limit !== undefined ? { limit: o.limit } : {}), ...(o.level !== undefined ? { level: o.level } : {}) });
        writer.write({ type: 'book', t: now(), book: bookRecord(book) });
        snapshots += 1;
        o.onSnapshot?.(snapshots);
      } catch (error) {
        errors += 1;
        o.onError?.(error);
      }
    }
  } finally {
    await writer.close();
  }
  return { snapshots, errors, files: writer.files };
}
