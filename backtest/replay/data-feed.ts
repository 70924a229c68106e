/**
 * The replay's input: one or more recordings read in the order given (a rotated series, or days in
 * order), as a pull cursor of time-ordered events, optionally cut to [from, to].
 */
import { statSync } from 'node:fs';
import { Decimal } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import { RecordedSnapshot, type MarketLine, type RecordingLine } from '../../src/venue/recording-format.js';
import type { TickTrade } from '../fill-model/fill-model.js';
import { readRecordingBatches } from '../../src/venue/recording-format.js';

export type FeedEvent =
  | { readonly kind: 'book'; readonly t: number; readonly snapshot: RecordedSnapshot }
  | { readonly kind: 'trade'; readonly t: number; readonly trade: TickTrade; readonly price: Decimal };

export interface DataFeedOptions {
  readonly files: readonly string[];
  /** Unix ms; events before are skipped. */
  readonly from?: number;
  /** Unix ms; reading stops after it. */
  readonly to?: number;
}

export class DataFeed {
  readonly totalBytes: number;
  #bytesDone = 0;
  #bytesCurrent = 0;
  #market: MarketLine | undefined;
  #scale = 1;
  readonly #iter: AsyncGenerator<RecordingLine[]>;
  readonly #options: DataFeedOptions;
  readonly #from: number;
  readonly #to: number;
  /** Decoded lines of the current chunk, served synchronously (see readRecordingBatches in src/venue/recording-format.ts). */
  #batch: RecordingLine[] = [];
  #pos = 0;
  #ended = false;

  constructor(options: DataFeedOptions) {
    if (options.files.length === 0) throw new ConfigError('backtest: no data file given');
    this.#options = options;
    this.totalBytes = options.files.reduce((n, f) => {
      try {
        return n + statSync(f).size;
      } catch (error) {
        throw new ConfigError(`backtest: cannot read data file ${f} (${(error as Error).message})`, { cause: error });
      }
    }, 0);
    this.#from = options.from ?? Number.NEGATIVE_INFINITY;
    this.#to = options.to ?? Number.POSITIVE_INFINITY;
    this.#iter = this.#batches();
  }

  /** The rules record at the head of the first file (available after the first `next()`). */
  get market(): MarketLine | undefined {
    return this.#market;
  }

  /** Compressed bytes read so far (for a progress bar). */
  get bytesRead(): number {
    return this.#bytesDone + this.#bytesCurrent;
  }

  async *#batches(): AsyncGenerator<RecordingLine[]> {
    for (const file of this.#options.files) {
      this.#bytesCurrent = 0;
      yield* readRecordingBatches(file, (b) => (this.#bytesCurrent = b));
      this.#bytesDone += statSync(file).size;
      this.#bytesCurrent = 0;
    }
  }

  /** The next event in time order, or undefined at the end (or past `to`). */
  async next(): Promise<FeedEvent | undefined> {
    for (;;) {
      const e = this.nextBuffered();
      if (e !== null) return e;
      const r = await this.#iter.next();
      if (r.done) {
        this.#ended = true;
        return undefined;
      }
      this.#batch = r.value;
      this.#pos = 0;
    }
  }

  /**
   * The next event when it is already decoded, without a promise: `null` means "call `next()`" (the next chunk
   * must be read); undefined is the end (or past `to`).
   */
  nextBuffered(): FeedEvent | undefined | null {
    if (this.#ended) return undefined;
    while (this.#pos < this.#batch.length) {
      const line = this.#batch[this.#pos++]!;
      if (line.type === 'market') {
        // The first file's rules apply to the whole run; a resumed file repeats the same record.
        if (this.#market === undefined) {
          this.#market = line;
          this.#scale = 10 ** Number(line.market.moneyPrec);
        }
        continue;
      }
      if (this.#market === undefined) throw new ConfigError('backtest: the data file does not start with a market record');
      if (line.t < this.#from) continue;
      if (line.t > this.#to) {
        this.#ended = true;
        this.#batch = [];
        // Stops reading (closes the file); nothing is left to await.
        this.#iter.return(undefined).catch(() => undefined);
        return undefined;
      }
      if (line.type === 'book') return { kind: 'book', t: line.t, snapshot: new RecordedSnapshot(line.t, line.book, this.#scale) };
      const price = new Decimal(line.price);
      return {
        kind: 'trade',
        t: line.t,
        price,
        trade: { t: line.t, priceTicks: Math.round(Number(line.price) * this.#scale), amount: new Decimal(line.amount), takerSide: line.side },
      };
    }
    return null;
  }
}
