/**
 * `bot import cryptofeed`: one instrument's L2 book and trades from a cryptofeed raw capture (OKX v5
 * `books`, Kraken v1 `book`; see cryptofeed-capture.ts) into a recording in the recorder's format,
 * sampled on the fixed grid (grid-sampler.ts).
 *
 * Time is the capture's local receive time, not the exchange's `ts`: the frames are in that order,
 * Kraken's book frames carry no message time at all, and a recording's `t` is what a bot could have
 * known then. A snapshot frame replaces the book; update sizes are absolute, zero removes the level;
 * a Kraken book is kept to its subscribed depth. After every frame that carries one, the venue's
 * checksum is compared with the rebuilt book; a mismatch (or a price off the --money-prec grid, an
 * update before the first snapshot, a time going back) is a CaptureFormatError naming file:line,
 * and nothing is written: a wrong book is never imported.
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../../src/model/errors.js';
import { RecordingWriter } from '../../src/recording/recording-writer.js';
import { krakenChecksum, okxChecksum } from './book-checksums.js';
import { CaptureFormatError } from './capture-format-error.js';
import { parseCryptofeedLine, type CfBook, type Venue } from './cryptofeed-capture.js';
import { discard } from './discard-output.js';
import { GridSampler, trimDecimal } from './grid-sampler.js';
import { LevelBook, OffTickError } from './level-book.js';
import { readTextLines } from './text-lines.js';
import type { RecordingImportOptions } from './import-options.js';

export interface CryptofeedImportOptions extends RecordingImportOptions {
  readonly file: string;
  /** OKX instId (BTC-USDT) or Kraken pair (XBT/CHF); required when the capture holds several. */
  readonly symbol?: string;
}

export interface CryptofeedImportSummary {
  readonly exchange: Venue | undefined;
  readonly symbol: string | undefined;
  readonly snapshots: number;
  readonly trades: number;
  readonly bookMessages: number;
  readonly checksumsVerified: number;
  readonly crossedSkipped: number;
  readonly firstT: number | undefined;
  readonly lastT: number | undefined;
  readonly files: readonly string[];
}

/** Applies one book frame and checks the venue's checksum; throws CaptureFormatError on any doubt. */
export function applyCryptofeedBook(book: LevelBook, m: CfBook, where: string): boolean {
  try {
    if (m.snapshot) book.clear();
    for (const [p, q] of m.bids) book.set('bid', p, q);
    for (const [p, q] of m.asks) book.set('ask', p, q);
  } catch (error) {
    if (error instanceof OffTickError) throw new CaptureFormatError(`${where}: ${error.message} (--money-prec)`, error);
    throw error;
  }
  if (m.depth !== undefined) {
    book.bids.truncate(m.depth);
    book.asks.truncate(m.depth);
  }
  if (m.checksum === undefined) return false;
  const rebuilt = m.venue === 'okx' ? okxChecksum(book.bids.top(25), book.asks.top(25)) : krakenChecksum(book.bids.top(10), book.asks.top(10));
  if (rebuilt !== m.checksum) {
    throw new CaptureFormatError(
      `${where}: ${m.venue} checksum ${String(m.checksum)} does not match the rebuilt book's ${String(rebuilt)} (a frame is missing or malformed); nothing imported`,
    );
  }
  return true;
}

/** The one instrument whose books the capture holds (a first pass, only when --symbol is not given). */
async function onlyInstrument(file: string): Promise<string> {
  const seen = new Set<string>();
  for await (const line of readTextLines([file])) {
    for (const m of parseCryptofeedLine(line.text, `${line.file}:${line.lineNo}`)) if (m.kind === 'book') seen.add(m.symbol);
  }
  if (seen.size === 1) return [...seen][0]!;
  if (seen.size === 0) throw new CaptureFormatError(`${file}: no book frames (OKX books or Kraken book channel)`);
  throw new ConfigError(`import cryptofeed: ${file} holds the books of ${[...seen].join(', ')}; choose one with --symbol`);
}

export async function importCryptofeed(options: CryptofeedImportOptions): Promise<CryptofeedImportSummary> {
  if (existsSync(options.out)) throw new ConfigError(`import: ${options.out} exists; choose another --out or remove it`);
  if (!existsSync(options.file)) throw new ConfigError(`import cryptofeed: ${options.file} does not exist`);
  const symbol = options.symbol ?? (await onlyInstrument(options.file));
  const book = new LevelBook(Number(options.market.moneyPrec));
  const writer = new RecordingWriter({ out: options.out, market: options.market, source: 'import cryptofeed', trades: true, flushEvery: 1000 });
  const sampler = new GridSampler({ writer, market: options.market.name, intervalMs: options.intervalMs, limit: options.limit });
  let venue: Venue | undefined;
  let synced = false;
  let lastT = -Infinity;
  const n = { trades: 0, book: 0, verified: 0 };

  try {
    for await (const line of readTextLines([options.file], options.onProgress)) {
      const where = `${line.file}:${line.lineNo}`;
      for (const m of parseCryptofeedLine(line.text, where)) {
        if (m.t < lastT) throw new CaptureFormatError(`${where}: receive time goes back`);
        lastT = m.t;
        if (m.symbol !== symbol) continue;
        venue ??= m.venue;
        sampler.advance(m.t, synced ? book : undefined);
        if (m.kind === 'trade') {
          if (sampler.firstT !== undefined) {
            writer.write({ type: 'trade', t: m.t, price: trimDecimal(m.price), amount: trimDecimal(m.amount), side: m.side });
            n.trades += 1;
          }
          continue;
        }
        if (!m.snapshot && !synced) throw new CaptureFormatError(`${where}: ${m.symbol} book update before its snapshot`);
        if (applyCryptofeedBook(book, m, where)) n.verified += 1;
        n.book += 1;
        synced = true;
      }
    }
    if (n.book === 0) throw new CaptureFormatError(`${options.file}: no book frames for ${symbol} (OKX books or Kraken book channel)`);
    if (sampler.snapshots === 0)
      throw new CaptureFormatError(`${options.file}: no grid time after the first snapshot (shorter than --interval): nothing to import`);
  } catch (error) {
    await discard(writer);
    throw error;
  }
  await writer.close();
  return {
    exchange: venue,
    symbol,
    snapshots: sampler.snapshots,
    trades: n.trades,
    bookMessages: n.book,
    checksumsVerified: n.verified,
    crossedSkipped: sampler.crossed,
    firstT: sampler.firstT,
    lastT: sampler.lastT,
    files: writer.files,
  };
}
