/**
 * Writes a recording (src/recording/recording-format.ts): gzip JSON Lines, the market record at the head
 * of every gzip member, then snapshots and trades.
 *
 * Rotation: with `rotate.maxBytes` (uncompressed bytes written to one file), `rotate.maxMs` (span of
 * receive times in one file) or `rotate.daily` (a new file when a line's time is on a later UTC day than the
 * file's first) the output becomes a numbered series: `out` = `btc.jsonl.gz` writes
 * `btc.0001.jsonl.gz`, `btc.0002.jsonl.gz`, ... Without rotation everything goes to `out`.
 *
 * Resume: an existing file is never overwritten. Without rotation a new gzip member is appended to it
 * (gzip allows concatenated members; the reader reads through them). With rotation the series
 * continues after the highest existing number. The reader tolerates a truncated last member (a
 * recorder killed mid-write); new data after it goes to the next numbered file or a new member.
 *
 * Durability: the gzip stream is flushed (Z_SYNC_FLUSH) every `flushEvery` lines, so a crash loses
 * at most that many lines.
 */
import { createWriteStream, existsSync, mkdirSync, readdirSync, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { constants, createGzip, type Gzip } from 'node:zlib';
import { encodeLine, RECORDING_VERSION, type RecordingLine } from './recording-format.js';
import type { WireMarket } from '../venue/wire.js';

export interface RecordingWriterOptions {
  /** Output path (`.jsonl.gz`); with rotation the stem of the numbered series. */
  readonly out: string;
  readonly market: WireMarket;
  readonly source?: string;
  /** The file carries every public trade of its period (see MarketLine.trades). */
  readonly trades?: boolean;
  readonly rotate?: { readonly maxBytes?: number | undefined; readonly maxMs?: number | undefined; readonly daily?: boolean | undefined };
  /** Lines between gzip sync flushes. Default 10. */
  readonly flushEvery?: number;
  /**
   * Told about a failed write (disk full, folder gone), once per file. Given, the failure is the caller's to handle
   * (a daemon keeps trading without its recording); absent, it is the stream's unhandled 'error' event, as before.
   */
  readonly onError?: ((error: Error, path: string) => void) | undefined;
}

interface OpenFile {
  readonly path: string;
  readonly gzip: Gzip;
  readonly file: WriteStream;
  bytes: number;
  firstT: number | undefined;
}

const SUFFIX = /\.jsonl\.gz$|\.gz$/;
const DAY_MS = 86_400_000;

/** Path of part `n` of a rotated series: `dir/stem.0001.jsonl.gz`. */
export function seriesPath(out: string, n: number): string {
  const stem = basename(out).replace(SUFFIX, '');
  return join(dirname(out), `${stem}.${String(n).padStart(4, '0')}.jsonl.gz`);
}

/** The existing parts of a rotated series, in order. */
export function listSeries(out: string): string[] {
  const dir = dirname(out);
  if (!existsSync(dir)) return [];
  const stem = basename(out).replace(SUFFIX, '');
  const re = new RegExp(`^${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d{4,})\\.jsonl\\.gz$`);
  return readdirSync(dir)
    .filter((f) => re.test(f))
    .sort()
    .map((f) => join(dir, f));
}

export class RecordingWriter {
  readonly #options: RecordingWriterOptions;
  #current: OpenFile | undefined;
  #part = 0;
  #sinceFlush = 0;
  #lines = 0;
  readonly #files: string[] = [];
  readonly #closing: Promise<void>[] = [];

  constructor(options: RecordingWriterOptions) {
    this.#options = options;
    mkdirSync(dirname(options.out), { recursive: true });
    if (this.#rotating) {
      const parts = listSeries(options.out);
      // Continue the series in a fresh part: the last one may end in a truncated member.
      this.#part = parts.length;
    }
  }

  get #rotating(): boolean {
    const r = this.#options.rotate;
    return r?.maxBytes !== undefined || r?.maxMs !== undefined || r?.daily === true;
  }

  /** Every file written to so far. */
  get files(): readonly string[] {
    return this.#files;
  }

  get lines(): number {
    return this.#lines;
  }

  write(line: RecordingLine): void {
    const t = line.type === 'market' ? undefined : line.t;
    if (this.#current && t !== undefined && this.#shouldRotate(t)) this.#closeCurrent();
    const f = this.#current ?? this.#openNext();
    if (t !== undefined) f.firstT ??= t;
    const text = encodeLine(line) + '\n';
    f.bytes += text.length;
    f.gzip.write(text);
    this.#lines += 1;
    if (++this.#sinceFlush >= (this.#options.flushEvery ?? 10)) {
      this.#sinceFlush = 0;
      f.gzip.flush(constants.Z_SYNC_FLUSH);
    }
  }

  /** Finishes the gzip member and closes the file. */
  async close(): Promise<void> {
    this.#closeCurrent();
    await Promise.all(this.#closing);
  }

  #shouldRotate(t: number): boolean {
    const f = this.#current;
    const rotate = this.#options.rotate;
    if (!f || !rotate) return false;
    if (rotate.maxBytes !== undefined && f.bytes >= rotate.maxBytes) return true;
    if (rotate.daily === true && f.firstT !== undefined && Math.floor(t / DAY_MS) > Math.floor(f.firstT / DAY_MS)) return true;
    return rotate.maxMs !== undefined && f.firstT !== undefined && t - f.firstT >= rotate.maxMs;
  }

  #closeCurrent(): void {
    const f = this.#current;
    this.#current = undefined;
    if (!f) return;
    this.#closing.push(
      new Promise<void>((resolve, reject) => {
        if (f.file.closed) return resolve(); // a failed write already closed it
        f.file.once('close', resolve);
        // a failure already told to onError settles the close: the caller knows
        f.file.once('error', this.#options.onError === undefined ? reject : () => resolve());
        f.gzip.end();
      }),
    );
  }

  #openNext(): OpenFile {
    const path = this.#rotating ? seriesPath(this.#options.out, ++this.#part) : this.#options.out;
    const gzip = createGzip();
    const file = createWriteStream(path, { flags: 'a' });
    gzip.pipe(file);
    const onError = this.#options.onError;
    if (onError !== undefined) {
      let told = false;
      const tell = (error: Error): void => {
        if (told) return;
        told = true;
        onError(error, path);
      };
      file.on('error', tell);
      gzip.on('error', tell);
    }
    const f: OpenFile = { path, gzip, file, bytes: 0, firstT: undefined };
    this.#current = f;
    this.#files.push(path);
    const head: RecordingLine = {
      type: 'market',
      version: RECORDING_VERSION,
      market: this.#options.market,
      ...(this.#options.source === undefined ? {} : { source: this.#options.source }),
      ...(this.#options.trades === true ? { trades: true } : {}),
    };
    const text = encodeLine(head) + '\n';
    f.bytes += text.length;
    gzip.write(text);
    return f;
  }
}
