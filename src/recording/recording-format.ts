/**
 * The recorded-books file format, shared by the recorder (`bot record`), the importers, the backtest
 * and the simulated exchange's replay flow.
 *
 * A recording is gzip-compressed JSON Lines (several gzip members may follow each other: a resumed
 * recording appends a new member). Lines:
 *
 * 1. the head, once: `{"type":"market","version":1,"market":<WireMarket>,"source":"..."}` — the
 *    market's rules record exactly as the markets endpoint gave it, so a backtest on old data applies
 *    the rules of its day. A resumed file may repeat it (the reader keeps the latest one).
 * 2. one line per snapshot: `{"type":"book","t":<local receive time, Unix ms>,"book":<OrderBookResponse>}`
 *    — the contract's order book record as received (decimals as strings).
 * 3. optional public trades: `{"type":"trade","t":<Unix ms>,"price":"..","amount":"..","side":"buy"|"sell","id"?:N}`
 *    (`side` is the aggressor's side; `id` the venue's trade id when the recorder polled it, so a resumed
 *    recording does not write a trade twice).
 *
 * Lines are in time order (`t` never decreases). Unknown `type`s are skipped so the format can grow.
 * The reader is on the backtest's hot path: a snapshot keeps its levels as the strings it read and
 * turns them into Decimal only when asked (`LazyLevel`), and into integer ticks for comparisons.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { BookLevel, OrderBook, Trade } from '../model/book.js';
import { Decimal, ZERO } from '../model/decimal.js';
import { estimate } from '../model/decimal-estimate.js';
import { dadd } from '../model/decimal-small.js';
import { BotError } from '../model/errors.js';
import type { OrderBookResponse, WireLevel, WireMarket } from '../venue/wire.js';
import { snapshotBook } from './snapshot-book.js';
import { isPositive } from '../model/book-levels.js';

export const RECORDING_VERSION = 1;

export interface MarketLine {
  readonly type: 'market';
  readonly version: number;
  readonly market: WireMarket;
  /** Free text: where the data came from (base URL, importer, ...). */
  readonly source?: string;
  /** True when the file carries every public trade of the period (an importer's capture); the fill model then
   *  reads "no trade line" as "no trade happened". Polled recordings have none. */
  readonly trades?: boolean;
}

export interface BookLine {
  readonly type: 'book';
  /** Local receive time, Unix ms. */
  readonly t: number;
  readonly book: OrderBookResponse;
}

export interface TradeLine {
  readonly type: 'trade';
  readonly t: number;
  readonly price: string;
  readonly amount: string;
  readonly side: 'buy' | 'sell';
  /** The venue's trade id (recorder only; importers leave it out). */
  readonly id?: number;
}

export type RecordingLine = MarketLine | BookLine | TradeLine;

/** A file that is not a recording, or a line that does not parse. */
export class RecordingFormatError extends BotError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'ERR_RECORDING_FORMAT', cause });
  }
}

export function encodeLine(line: RecordingLine): string {
  return JSON.stringify(line);
}

/** Parses one line; `undefined` for a blank line or an unknown type (skipped for forward compatibility). */
export function decodeLine(text: string, where = 'line'): RecordingLine | undefined {
  if (text.length === 0 || text.trim().length === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RecordingFormatError(`${where}: not JSON`, error);
  }
  if (typeof value !== 'object' || value === null) throw new RecordingFormatError(`${where}: not an object`);
  const v = value as Record<string, unknown>;
  switch (v['type']) {
    case 'book': {
      const book = v['book'] as OrderBookResponse | undefined;
      if (typeof v['t'] !== 'number' || !book || !Array.isArray(book.asks) || !Array.isArray(book.bids)) {
        throw new RecordingFormatError(`${where}: book line needs t and book.asks/bids`);
      }
      return value as BookLine;
    }
    case 'trade':
      if (typeof v['t'] !== 'number' || typeof v['price'] !== 'string' || typeof v['amount'] !== 'string') {
        throw new RecordingFormatError(`${where}: trade line needs t, price, amount`);
      }
      return value as TradeLine;
    case 'market': {
      const m = v['market'] as WireMarket | undefined;
      if (!m || typeof m.name !== 'string' || typeof m.stockPrec !== 'string') {
        throw new RecordingFormatError(`${where}: market line needs a WireMarket`);
      }
      return value as MarketLine;
    }
    default:
      return undefined;
  }
}

/**
 * Gunzip output buffering. With the defaults (16 KiB output chunks, 16 KiB readable buffer) the gunzip stream stops
 * as soon as one chunk waits to be read, so the main thread, busy decoding, then waits for the threadpool, and
 * every 16 KiB costs a stream round trip: in a CPU profile of the text floor, 8.5 % "(idle)" and 10 % zlib
 * `_read` on the main thread. 1 MiB chunks and up to 8 MiB buffered let decompression run ahead (1.5 % idle, the
 * `_read` share gone; gunzip alone: 0.9 s → 0.25 s CPU for a day of 20-level snapshots).
 */
const GUNZIP_READ_AHEAD = { chunkSize: 1 << 20, highWaterMark: 8 << 20 } as const;

/**
 * Lines decoded per batch. Small enough that a batch's decoded lines are consumed before the next young-generation
 * GC has to copy them (1 MiB chunks decoded whole, ~1,000 lines, doubled the GC share), large enough that the
 * promise hop per batch is noise.
 */
const BATCH_LINES = 64;

/**
 * Reads a recording (gzip or plain text, several gzip members allowed; a truncated
 * last member keeps its complete lines). It decodes up to BATCH_LINES lines of a decompressed chunk in one
 * synchronous loop and yields them as an array.
 *
 * Why: decoding line by line interleaved with the engine's work ran JSON.parse on cold caches (the replay's
 * parsing measured ~2.5x slower than the same parsing alone), and every line cost a few promise hops. A line
 * that does not decode is still reported in order: the lines before it are yielded first, then the error.
 * Decompression runs ahead on the threadpool (`GUNZIP_READ_AHEAD`) while the main thread decodes.
 */
export async function* readRecordingBatches(file: string, onBytes?: (bytesRead: number) => void): AsyncGenerator<RecordingLine[]> {
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  const stream = file.endsWith('.gz') ? gunzipOf(source) : source;
  let rest = '';
  let lineNo = 0;
  let failure: { readonly error: unknown } | undefined;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      onBytes?.(source.bytesRead);
      const text = rest + chunk.toString('utf8');
      let start = 0;
      for (let nl = 0; nl >= 0; ) {
        const batch: RecordingLine[] = [];
        try {
          while (batch.length < BATCH_LINES && (nl = text.indexOf('\n', start)) >= 0) {
            lineNo += 1;
            const line = decodeLine(text.slice(start, nl), `${file}:${lineNo}`);
            start = nl + 1;
            if (line) batch.push(line);
          }
        } catch (error) {
          failure = { error };
        }
        if (batch.length > 0) yield batch;
        if (failure !== undefined) throw failure.error;
      }
      rest = text.slice(start);
    }
  } catch (error) {
    if (error instanceof RecordingFormatError) throw error;
    // A recorder killed mid-write leaves a truncated gzip member: keep every complete line before it.
    if ((error as NodeJS.ErrnoException).code === 'Z_BUF_ERROR') return;
    throw new RecordingFormatError(`${file}: cannot read (${(error as Error).message})`, error);
  } finally {
    source.destroy();
  }
  if (rest.length > 0) {
    const line = decodeLine(rest, `${file}:${lineNo + 1}`);
    if (line) yield [line];
  }
}

/**
 * The gunzip side of `source`. pipe() does not pass the file's errors on: a missing `.gz` file raised its ENOENT as
 * an unhandled 'error' event (a stack trace, exit 1); forwarded, it ends the read like a missing plain file does.
 */
function gunzipOf(source: ReturnType<typeof createReadStream>): NodeJS.ReadableStream {
  const gunzip = createGunzip(GUNZIP_READ_AHEAD);
  source.once('error', (error) => gunzip.destroy(error));
  return source.pipe(gunzip);
}

/** Every line of a recording, decoded, in order (see `readRecordingBatches`). */
export async function* readRecordingLines(file: string, onBytes?: (bytesRead: number) => void): AsyncGenerator<RecordingLine> {
  for await (const batch of readRecordingBatches(file, onBytes)) yield* batch;
}

// ---------------------------------------------------------------- lazy domain objects

/** A recorded book level: the domain view (Decimals) plus the strings it was recorded as. */
export interface RecordedLevel extends BookLevel {
  readonly wire: WireLevel;
}

/** A book level that parses its strings to Decimal on first access (most levels are never looked at). */
export class LazyLevel implements RecordedLevel {
  #price: Decimal | undefined;
  #amount: Decimal | undefined;
  constructor(readonly wire: WireLevel) {}
  get price(): Decimal {
    return (this.#price ??= new Decimal(this.wire[0]));
  }
  get amount(): Decimal {
    return (this.#amount ??= new Decimal(this.wire[1]));
  }
}

/** Integer ticks of a price string: exact for prices on a 10^-prec grid (the float error is far below half a tick). */
export function priceToTicks(price: string, scale: number): number {
  return Math.round(Number(price) * scale);
}

/** A side of a recorded book, by its field name. */
export type BookSideName = 'asks' | 'bids';

/**
 * One recorded snapshot with lazy views: the domain `OrderBook` (Decimals parsed on access) and
 * integer-tick prices for the fill model's comparisons.
 *
 * This class reads a decoded text line. The binary cache (backtest/data/cached-snapshot.ts) subclasses it and
 * overrides every accessor below (`wire`, `timestamp`, `asks`, `bids`, `askTicks`, `bidTicks`, and the level
 * queries `levelCount` … `amountSum`) to read typed arrays instead; `toOrderBook` is written against those
 * accessors only. The level queries answer what the fill model asks of every snapshot (a level's ticks and amount,
 * the sum of the first levels' amounts) without building a side's arrays of levels or ticks.
 */
export class RecordedSnapshot {
  #askTicks: number[] | undefined;
  #bidTicks: number[] | undefined;
  #asks: LazyLevel[] | undefined;
  #bids: LazyLevel[] | undefined;
  readonly #wire: OrderBookResponse;
  constructor(
    /** Local receive time, Unix ms: when the snapshot becomes visible in a replay. */
    readonly t: number,
    wire: OrderBookResponse,
    /** 10^moneyPrec of the market. */
    readonly tickScale: number,
  ) {
    this.#wire = wire;
  }

  /** The contract's order book record as recorded (decimals as strings). */
  get wire(): OrderBookResponse {
    return this.#wire;
  }
  /** The book's own timestamp (`wire.timestamp`, whole Unix seconds). */
  get timestamp(): number {
    return this.#wire.timestamp;
  }
  get asks(): readonly RecordedLevel[] {
    return (this.#asks ??= this.#wire.asks.map((l) => new LazyLevel(l)));
  }
  get bids(): readonly RecordedLevel[] {
    return (this.#bids ??= this.#wire.bids.map((l) => new LazyLevel(l)));
  }
  askTicks(): readonly number[] {
    return (this.#askTicks ??= this.#wire.asks.map((l) => priceToTicks(l[0], this.tickScale)));
  }
  bidTicks(): readonly number[] {
    return (this.#bidTicks ??= this.#wire.bids.map((l) => priceToTicks(l[0], this.tickScale)));
  }

  /**
   * True when every level's amount is known to be a non-negative decimal without reading it (the binary cache holds
   * plain non-negative decimals only); a text line is not checked, so false here. Lets the fill model skip a lookup
   * whose answer could only matter were it negative (fill-model.ts).
   */
  get nonNegativeAmounts(): boolean {
    return false;
  }

  /** Levels on a side. */
  levelCount(side: BookSideName): number {
    return this.#wire[side].length;
  }
  /** The price of level `i` of a side (best first) in integer ticks: `askTicks()[i]` or `bidTicks()[i]`. */
  levelTicks(side: BookSideName, i: number): number {
    return (side === 'asks' ? this.askTicks() : this.bidTicks())[i]!;
  }
  /** The price of level `i` of a side: `asks[i].price` or `bids[i].price`. */
  levelPrice(side: BookSideName, i: number): Decimal {
    return this[side][i]!.price;
  }
  /** `estimate(levelPrice(side, i))` (decimal-estimate.ts: within ESTIMATE_REL_ERROR of the price; NaN: not estimated). */
  levelPriceEstimate(side: BookSideName, i: number): number {
    return estimate(this.levelPrice(side, i));
  }
  /** The amount of level `i` of a side: `asks[i].amount` or `bids[i].amount`. */
  levelAmount(side: BookSideName, i: number): Decimal {
    return this[side][i]!.amount;
  }
  /** True when the price (or amount) of level `i` of a side is > 0 and finite. */
  levelPositive(side: BookSideName, i: number, field: 'price' | 'amount'): boolean {
    return isPositive(field === 'price' ? this.levelPrice(side, i) : this.levelAmount(side, i));
  }
  /**
   * The level of a side priced at `ticks`, looked for best first and given up once the scan passes the price (a bid
   * below it, an ask above it) or the side ends: its number, or -1. The fill model asks it of every resting order on
   * every snapshot (the displayed queue at the order's price, fill-model/book-queries.ts).
   */
  levelIndexAt(side: BookSideName, ticks: number): number {
    const n = this.levelCount(side);
    for (let i = 0; i < n; i++) {
      const v = this.levelTicks(side, i);
      if (v === ticks) return i;
      if (side === 'bids' ? v < ticks : v > ticks) return -1;
    }
    return -1;
  }
  /**
   * How many levels of a side, best first, are priced at or through `ticks` before the first that is not (an ask at
   * or below it, a bid at or above it): the levels an order of the other side at `ticks` would meet.
   */
  levelsAtOrThrough(side: BookSideName, ticks: number): number {
    const n = this.levelCount(side);
    let k = 0;
    while (k < n) {
      const v = this.levelTicks(side, k);
      if (side === 'asks' ? v > ticks : v < ticks) break;
      k += 1;
    }
    return k;
  }
  /** The exact sum of the amounts of the first `n` levels of a side (the ZERO constant when `n` is 0). */
  amountSum(side: BookSideName, n: number): Decimal {
    let sum = ZERO;
    for (let i = 0; i < n; i++) sum = dadd(sum, this.levelAmount(side, i));
    return sum;
  }

  /**
   * The domain order book, at most `limit` levels a side (0/undefined = 100, as the venue). Its level arrays are built
   * only when read (snapshot-book.ts): the engine reads the touch through the book's level reader.
   */
  toOrderBook(market: string, limit?: number): OrderBook {
    return snapshotBook(this, market, limit === undefined || limit <= 0 ? 100 : limit);
  }
}

export function tradeFromLine(market: string, line: TradeLine): Trade {
  return { market, time: line.t, price: new Decimal(line.price), amount: new Decimal(line.amount), takerSide: line.side };
}
