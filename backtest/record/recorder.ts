/**
 * The recorder behind `bot record`: polls one market's order book through a TradingApi (the REST
 * client, whose limiter keeps every 10 s window within the venue's allowance) at a fixed interval and
 * writes the market's rules record, then one line per snapshot with the local receive time.
 *
 * Trades (`publicTrades` given): at each grid point the recent-trades page is polled before the book,
 * through the same client and so the same limiter (both count against the venue's shared public
 * budget), de-duplicated by trade id (src/streams/trade-dedup.ts; a resumed file's last ids are read back first,
 * ./resume-trades.ts) and written oldest first as trade lines. A trade line's time is the venue's trade
 * time (whole seconds) raised to the last line written, so lines never go back in time and a trade
 * falls between the two snapshots it happened between (or, when it came after this poll, in the next
 * interval). The head then says `trades: true`: the fill model reads "no trade line" as "no trade".
 * A page that cannot prove it overlaps the previous one (100 new trades or more) counts as a possible
 * gap (`tradeGaps`); poll faster than the market trades 100 times to avoid them.
 *
 * Timing: each poll is scheduled on a fixed grid from the start (start + k × interval), so slow answers
 * do not make the recording drift; a poll never overlaps the previous one (a grid point that passed
 * while waiting is skipped, not bunched). The interval must fit the order book budget (600 / 10 s):
 * anything under windowMs / limit is refused.
 */
import type { PublicTrade } from '../../src/model/book.js';
import { fmt } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import { PublicApiError, RequestValidationError } from '../../src/venue/errors.js';
import type { TradingApi } from '../../src/venue/trading-api.js';
import { RATE_LIMITS } from '../../src/venue/wire.js';
import { RecordingWriter } from '../../src/recording/recording-writer.js';
import { readRecordingTail } from './resume-trades.js';
import { TradeDeduper } from '../../src/streams/trade-dedup.js';
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
  /** Waits until the next grid point (real timers by default; a test on a virtual clock passes that clock's). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * A failed poll (it is retried at the next grid point). A request the venue refuses as invalid (a 4xx validation
   * answer: a bad limit or level, an unknown market) is not: the recording stops with a ConfigError, since the same
   * request would be refused at every grid point for ever.
   */
  readonly onError?: (error: unknown) => void;
  readonly onSnapshot?: (n: number) => void;
  /** Polls the venue's recent public trades too (e.g. `(m) => client.publicTrades(m)`); absent: books only. */
  readonly publicTrades?: (market: string) => Promise<readonly PublicTrade[]>;
}

export interface RecorderResult {
  readonly snapshots: number;
  readonly errors: number;
  readonly files: readonly string[];
  /** Trade lines written (0 without `publicTrades`). */
  readonly trades: number;
  /** Trade pages that could not prove they overlap the previous one: trades may be missing there. */
  readonly tradeGaps: number;
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
  const pub = RATE_LIMITS.public;
  // with trades, two public requests per grid point share the public allowance
  const minInterval = Math.max(rl.windowMs / rl.limit, o.publicTrades ? (2 * pub.windowMs) / pub.limit : 0);
  if (!(o.intervalMs >= minInterval)) {
    throw new ConfigError(
      `record: --interval ${o.intervalMs} ms is faster than the order book limit allows (${rl.limit} per ${rl.windowMs / 1000} s: at least ${Math.ceil(minInterval)} ms)`,
    );
  }
  const now = o.now ?? (() => Date.now());
  const pause = o.sleep ?? sleep;
  const markets = await o.api.markets();
  const market = markets.find((m) => m.name === o.market);
  if (market === undefined) throw new ConfigError(`record: the venue has no market ${o.market} (it has ${markets.map((m) => m.name).join(', ')})`);
  const rotating = o.rotate?.maxBytes !== undefined || o.rotate?.maxMs !== undefined;
  const tail = o.publicTrades ? await readRecordingTail(o.out, rotating) : { tradeIds: [], lastT: undefined };
  const dedup = new TradeDeduper(tail.tradeIds);
  const writer = new RecordingWriter({
    out: o.out,
    market: marketRecord(market),
    ...(o.rotate ? { rotate: o.rotate } : {}),
    ...(o.source ? { source: o.source } : {}),
    ...(o.publicTrades ? { trades: true } : {}),
  });
  const start = now();
  let snapshots = 0;
  let errors = 0;
  let trades = 0;
  let tradeGaps = 0;
  let lastT = tail.lastT ?? Number.NEGATIVE_INFINITY;
  try {
    for (let k = 0; ; k++) {
      if (o.signal?.aborted) break;
      if (o.count !== undefined && snapshots >= o.count) break;
      const due = start + k * o.intervalMs;
      if (o.durationMs !== undefined && due - start >= o.durationMs) break;
      const wait = due - now();
      if (wait < -o.intervalMs) continue; // a grid point passed while the previous poll waited: skip it
      await pause(wait, o.signal);
      if (o.signal?.aborted) break;
      if (o.publicTrades) {
        try {
          const step = dedup.accept(await o.publicTrades(o.market));
          if (step.gap) tradeGaps += 1;
          for (const tr of step.fresh) {
            lastT = Math.max(lastT, tr.time);
            writer.write({ type: 'trade', t: lastT, price: fmt(tr.price), amount: fmt(tr.amount), side: tr.takerSide, id: tr.id });
          }
          trades += step.fresh.length;
        } catch (error) {
          refuseForGood(error, 'recent trades', o.market);
          errors += 1;
          o.onError?.(error);
        }
      }
      try {
        const book = await o.api.orderBook(o.market, {
          ...(o.limit !== undefined ? { limit: o.limit } : {}),
          ...(o.level !== undefined ? { level: o.level } : {}),
        });
        lastT = Math.max(lastT, now());
        writer.write({ type: 'book', t: lastT, book: bookRecord(book) });
        snapshots += 1;
        o.onSnapshot?.(snapshots);
      } catch (error) {
        refuseForGood(error, 'order book', o.market);
        errors += 1;
        o.onError?.(error);
      }
    }
  } finally {
    await writer.close();
  }
  return { snapshots, errors, files: writer.files, trades, tradeGaps };
}

/** A validation refusal (4xx) ends the recording: asking again at the next grid point gets the same answer. */
function refuseForGood(error: unknown, what: string, market: string): void {
  if (!(error instanceof PublicApiError || error instanceof RequestValidationError)) return;
  const status = error.status === undefined ? '' : `HTTP ${error.status}: `;
  throw new ConfigError(
    `record: the venue refuses the ${what} request for ${market} (${status}${error.message}); it would refuse it again, so the recording stops (check --limit 0-100 and --level 0-5)`,
    { cause: error },
  );
}
