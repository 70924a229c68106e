/**
 * The replay's input: one or more recordings read in the order given (a rotated series, or days in
 * order), as a pull cursor of time-ordered events, optionally cut to [from, to].
 */
import { statSync } from 'node:fs';
import { Decimal } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import {
  readRecordingLines, RecordedSnapshot, type MarketLine, type RecordingLine,
} from '../../src/venue/recording-format.js';
import type { TickTrade } from '../fill-model/fill-model.js';

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
  readonly #iter: AsyncGenerator<RecordingLine>;
  readonly #options: DataFeedOptions;

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
    this.#iter = this.#lines();
  }

  /** The rules record at the head of the first file (available after the first `next()`). */
  get market(): MarketLine | undefined {
    return this.#market;
  }

  /** Compressed bytes read so far (for a progress bar). */
  get bytesRead(): number {
    return this.#bytesDone + this.#bytesCurrent;
  }

  async *#lines(): AsyncGenerator<RecordingLine> {
    for (const file of this.#options.files) {
      this.#bytesCurrent = 0;
      yield* readRecordingLines(file, (b) => (this.#bytesCurrent = b));
      this.#bytesDone += statSync(file).size;
      this.#bytesCurrent = 0;
    }
  }

  /** The next event in time order, or undefined at the end (or past `to`). */
  async next(): Promise<FeedEvent | undefined> {
    const from = this.#options.from ?? Number.NEGATIVE_INFINITY;
    const to = this.#options.to ?? Number.POSITIVE_INFINITY;
    for (;;) {
      const r = await this.#iter.next();
      if (r.done) return undefined;
      const line = r.value;
      if (line.type === 'market') {
        // The first file's rules apply to the whole run; a resumed file repeats the same record.
        if (this.#market === undefined) {
          this.#market = line;
          this.#scale = 10 ** Number(line.market.moneyPrec);
        }
        continue;
      }
      if (this.#market === undefined) throw new ConfigError('backtest: the data file does not start with a market record');
      if (line.t < from) continue;
      if (line.t > to) {
        await this.#iter.return(undefined);
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
  }
}
