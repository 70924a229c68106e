import type { Logger } from 'pino';
import { Subscription, type SchedulerLike } from 'rxjs';
import { readRecordingTail } from '../../backtest/record/resume-trades.js';
import type { OrderBook, PublicTrade } from '../model/book.js';
import { fmt } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { TradeLine } from '../recording/recording-format.js';
import { RecordingWriter } from '../recording/recording-writer.js';
import { recordFileOf, type RecordConfig } from '../settings/record-config.js';
import { bookRecord, marketRecord } from '../sim/http/public-format.js';
import { tradesSource } from '../streams/trades-source.js';

export interface SessionRecorderOptions {
  /** `record.path`, absolute: the recording's file or folder (settings/record-config.ts; checked: daemon-files.ts). */
  readonly path: string;
  /** The markets the daemon polls. */
  readonly markets: readonly Market[];
  readonly rotate?: RecordConfig['rotate'];
  /** The venue's recent public trades; absent, books only. */
  readonly publicTrades?: ((market: string) => Promise<readonly PublicTrade[]>) | undefined;
  /** Trades poll period, ms (the daemon's book period: the grid `bot record` uses). */
  readonly tradesMs: number;
  readonly scheduler: SchedulerLike;
  readonly clock: { now(): number };
  readonly logger: Logger;
  /** The head record's source (the venue). */
  readonly source: string;
  /**
   * Read the trade ids at the end of existing files first, so a restart writes no trade twice: for a venue whose
   * trade ids go on across the daemon's restarts (a REST venue). An embedded or paper venue starts afresh.
   */
  readonly resume: boolean;
}

/** A line waiting for the flush: a polled book (made a wire record then) or a trade line. */
type Pending = { readonly r: MarketRecording; readonly t: number; readonly book: OrderBook } | { readonly r: MarketRecording; readonly trade: TradeLine };

interface MarketRecording {
  readonly market: string;
  readonly writer: RecordingWriter;
  /** Trade ids a resumed file already holds. */
  readonly knownTradeIds: readonly number[];
  lastT: number;
  failed: boolean;
}

/**
 * Every session can be replayed (#25 item 3): the daemon's config `record: { path, rotate? }` writes the public data
 * the daemon polls - each order book its runtime polled (the runtime's `onPolled` tap) and the markets' recent
 * trades (polled here, on the daemon's scheduler, while recording; the runtime asks for them only while a book jump
 * is held) - in the recorder's format (src/recording: gzip JSON Lines, the market's rules at the head), one file (or
 * rotated series) per market (recordFileOf), which `bot backtest`, `bot sim --replay`, `bot parity` and `bot data info`
 * read. As `bot record` does, trades are de-duplicated by id, and a line's time never goes back.
 *
 * The tap adds one array push to a poll's path: lines are formatted and compressed after the tick, in a batch per
 * event-loop turn (the bench's tick-to-wire p99 with recording on and off: test/bench/tick.bench.ts). A failed write
 * (disk full) is logged once and stops that market's recording; trading goes on.
 */
export class SessionRecorder {
  readonly #o: SessionRecorderOptions;
  readonly #recordings: Map<string, MarketRecording>;
  readonly #subs = new Subscription();
  #pending: Pending[] = [];
  #flushing: NodeJS.Immediate | undefined;
  #closed = false;

  private constructor(o: SessionRecorderOptions, recordings: Map<string, MarketRecording>) {
    this.#o = o;
    this.#recordings = recordings;
  }

  static async open(o: SessionRecorderOptions): Promise<SessionRecorder> {
    const rotating = o.rotate?.maxBytes !== undefined || o.rotate?.daily === true;
    const recordings = new Map<string, MarketRecording>();
    for (const m of o.markets) {
      const out = recordFileOf(o.path, m.name, o.markets.length);
      const tail = o.resume && o.publicTrades !== undefined ? await readRecordingTail(out, rotating) : { tradeIds: [], lastT: undefined };
      const r: MarketRecording = {
        market: m.name,
        knownTradeIds: tail.tradeIds,
        lastT: tail.lastT ?? Number.NEGATIVE_INFINITY,
        failed: false,
        writer: new RecordingWriter({
          out,
          market: marketRecord(m),
          source: o.source,
          ...(o.publicTrades !== undefined ? { trades: true } : {}),
          ...(rotating ? { rotate: { maxBytes: o.rotate?.maxBytes, daily: o.rotate?.daily } } : {}),
          onError: (error, path) => {
            r.failed = true;
            o.logger.error({ market: m.name, file: path, err: error.message }, `recording of ${m.name} stopped: ${path}: ${error.message} (trading goes on)`);
          },
        }),
      };
      recordings.set(m.name, r);
    }
    return new SessionRecorder(o, recordings);
  }

  /** The runtime's tap (RuntimeOptions.onPolled): one book line, written after the tick. */
  readonly onBook = (market: string, book: OrderBook): void => {
    const r = this.#recordings.get(market);
    if (r === undefined || r.failed || this.#closed) return;
    r.lastT = Math.max(r.lastT, this.#o.clock.now());
    this.#queue({ r, t: r.lastT, book });
  };

  /** Starts the trades polls (after the runtime's start, so the first lines are the first polled books). */
  start(): void {
    const fetch = this.#o.publicTrades;
    if (fetch === undefined) return;
    for (const r of this.#recordings.values()) {
      const trades = tradesSource(
        fetch,
        r.market,
        {
          periodMs: this.#o.tradesMs,
          known: r.knownTradeIds,
          onError: (error, attempt) => {
            if (attempt === 1)
              this.#o.logger.warn(
                { market: r.market, err: error instanceof Error ? error.message : String(error) },
                'recording: recent trades poll failed (retrying)',
              );
          },
          onGap: () => this.#o.logger.debug({ market: r.market }, 'recording: a trades page did not overlap the previous one (trades may be missing)'),
        },
        this.#o.scheduler,
      );
      this.#subs.add(
        trades.subscribe((t) => {
          if (r.failed || this.#closed) return;
          r.lastT = Math.max(r.lastT, t.time);
          this.#queue({ r, trade: { type: 'trade', t: r.lastT, price: fmt(t.price), amount: fmt(t.amount), side: t.takerSide, id: t.id } });
        }),
      );
    }
  }

  /** Every file written so far, over all markets. */
  get files(): string[] {
    return [...this.#recordings.values()].flatMap((r) => r.writer.files);
  }

  /** Stops the trades polls, writes what is queued and closes the files. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#subs.unsubscribe();
    if (this.#flushing !== undefined) clearImmediate(this.#flushing);
    this.#flush();
    await Promise.all([...this.#recordings.values()].map((r) => r.writer.close()));
  }

  #queue(item: Pending): void {
    this.#pending.push(item);
    this.#flushing ??= setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#flushing = undefined;
    const batch = this.#pending;
    this.#pending = [];
    for (const item of batch) {
      if (item.r.failed) continue;
      // the domain book becomes the wire record (decimal strings) here, off the tick's path
      item.r.writer.write('trade' in item ? item.trade : { type: 'book', t: item.t, book: bookRecord(item.book) });
    }
  }
}
