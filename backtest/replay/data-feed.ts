/**
 * The replay's input: one or more recordings read in the order given (a rotated series, or days in
 * order), as a pull cursor of time-ordered events, optionally cut to [from, to].
 *
 * Each file is read from its binary cache when a valid one exists (backtest/data/recording-cache.ts: no gunzip,
 * no JSON), else from the text; a text read that reaches the file's end also builds the cache on the way, so
 * the next replay of the file is fast. Both give exactly the same events. A cache found damaged mid-file is
 * dropped for the text, from the event where it broke (and rebuilt).
 */
import { statSync } from 'node:fs';
import type { Decimal } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import { readRecordingBatches, type MarketLine, type RecordedSnapshot } from '../../src/recording/recording-format.js';
import type { TickTrade } from '../../src/fill-model/fill-model.js';
import { recordingCacheSettings, type RecordingCacheOptions, type RecordingCacheSettings } from '../data/cache-settings.js';
import { BlockChunk, KIND_BOOK, KIND_MARKET, LineChunk, type FeedChunk } from '../data/feed-chunks.js';
import { CacheBuilder, CacheDamagedError, CacheReader } from '../data/recording-cache.js';

export type FeedEvent =
  | { readonly kind: 'book'; readonly t: number; readonly snapshot: RecordedSnapshot }
  | { readonly kind: 'trade'; readonly t: number; readonly trade: TickTrade; readonly price: Decimal };

export interface DataFeedOptions {
  readonly files: readonly string[];
  /** Unix ms; events before are skipped. */
  readonly from?: number;
  /** Unix ms; reading stops after it. */
  readonly to?: number;
  /** The recording cache (directory, or false for none). Default: backtest/data/cache-settings.ts. */
  readonly cache?: RecordingCacheOptions;
}

const EMPTY: FeedChunk = new LineChunk([]);

export class DataFeed {
  readonly totalBytes: number;
  #bytesDone = 0;
  #bytesCurrent = 0;
  #market: MarketLine | undefined;
  #scale = 1;
  readonly #iter: AsyncGenerator<FeedChunk>;
  readonly #options: DataFeedOptions;
  readonly #cache: RecordingCacheSettings;
  readonly #from: number;
  readonly #to: number;
  /** Lines of the current chunk, served synchronously (see readRecordingBatches in src/recording/recording-format.ts). */
  #chunk: FeedChunk = EMPTY;
  #pos = 0;
  #ended = false;
  readonly #sources: Array<'cache' | 'text'> = [];

  constructor(options: DataFeedOptions) {
    if (options.files.length === 0) throw new ConfigError('backtest: no data file given');
    this.#options = options;
    this.#cache = recordingCacheSettings(options.cache);
    this.totalBytes = options.files.reduce((n, f) => {
      try {
        return n + statSync(f).size;
      } catch (error) {
        throw new ConfigError(`backtest: cannot read data file ${f} (${(error as Error).message})`, { cause: error });
      }
    }, 0);
    this.#from = options.from ?? Number.NEGATIVE_INFINITY;
    this.#to = options.to ?? Number.POSITIVE_INFINITY;
    this.#iter = this.#chunks();
  }

  /** The rules record at the head of the first file (available after the first `next()`). */
  get market(): MarketLine | undefined {
    return this.#market;
  }

  /** Compressed bytes read so far (for a progress bar). */
  get bytesRead(): number {
    return this.#bytesDone + this.#bytesCurrent;
  }

  /** Where each file opened so far is read from (the last may have switched from 'cache' to 'text' if damaged). */
  get sources(): readonly ('cache' | 'text')[] {
    return this.#sources;
  }

  async *#chunks(): AsyncGenerator<FeedChunk> {
    for (const file of this.#options.files) {
      this.#bytesCurrent = 0;
      yield* this.#fileChunks(file);
      this.#bytesDone += statSync(file).size;
      this.#bytesCurrent = 0;
    }
  }

  async *#fileChunks(file: string): AsyncGenerator<FeedChunk> {
    const reader = await CacheReader.open(file, this.#cache);
    if (reader === undefined) {
      this.#sources.push('text');
      yield* this.#textChunks(file, 0);
      return;
    }
    this.#sources.push('cache');
    const sourceSize = statSync(file).size;
    let served = 0;
    try {
      for await (const block of reader.blocks((b) => (this.#bytesCurrent = Math.round((sourceSize * b) / reader.size)))) {
        served += block.events;
        yield new BlockChunk(block);
      }
      return;
    } catch (error) {
      if (!(error instanceof CacheDamagedError)) throw error;
      this.#cache.log(`${error.message}: reading ${file} as text from line ${served + 1} on, and rebuilding the cache`);
    } finally {
      await reader.close();
    }
    this.#sources[this.#sources.length - 1] = 'text';
    yield* this.#textChunks(file, served);
  }

  /** The text of `file`, without its first `skip` lines (already served from a cache), building its cache. */
  async *#textChunks(file: string, skip: number): AsyncGenerator<FeedChunk> {
    const builder = CacheBuilder.start(file, this.#cache);
    let complete = false;
    try {
      for await (const lines of readRecordingBatches(file, (b) => (this.#bytesCurrent = b))) {
        builder?.add(lines);
        const from = Math.min(skip, lines.length);
        skip -= from;
        if (from < lines.length) yield new LineChunk(from === 0 ? lines : lines.slice(from));
      }
      complete = true;
    } finally {
      // a read cut short (--to, or an error) has not seen the whole file: no cache from it
      if (complete) builder?.finish();
      else builder?.abort('the read stopped before the end of the file');
    }
  }

  /** Stops reading: closes the file and drops a cache being built; nothing is left to await. */
  #stop(): void {
    this.#ended = true;
    this.#chunk = EMPTY;
    this.#iter.return(undefined).catch(() => undefined);
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
      this.#chunk = r.value;
      this.#pos = 0;
    }
  }

  /**
   * The next event when it is already decoded, without a promise: `null` means "call `next()`" (the next chunk
   * must be read); undefined is the end (or past `to`).
   */
  nextBuffered(): FeedEvent | undefined | null {
    if (this.#ended) return undefined;
    const c = this.#chunk;
    while (this.#pos < c.length) {
      const i = this.#pos++;
      const kind = c.kind(i);
      if (kind === KIND_MARKET) {
        // The first file's rules apply to the whole run; a resumed file repeats the same record.
        if (this.#market === undefined) {
          this.#market = c.market(i);
          this.#scale = 10 ** Number(this.#market.market.moneyPrec);
        }
        continue;
      }
      if (this.#market === undefined) {
        this.#stop();
        throw new ConfigError('backtest: the data file does not start with a market record');
      }
      const t = c.t(i);
      if (t < this.#from) continue;
      if (t > this.#to) {
        this.#stop();
        return undefined;
      }
      if (kind === KIND_BOOK) return { kind: 'book', t, snapshot: c.snapshot(i, this.#scale) };
      const { trade, price } = c.trade(i, this.#scale);
      return { kind: 'trade', t, price, trade };
    }
    return null;
  }
}
