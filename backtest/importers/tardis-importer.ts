/**
 * `bot import tardis`: a Tardis.dev `incremental_book_L2` CSV (and optionally its `trades` CSV) into a
 * recording in the recorder's format, sampled on the fixed grid (grid-sampler.ts).
 *
 * Time is `local_timestamp`, the arrival time at Tardis' collector, not the exchange's `timestamp`:
 * the files are ordered by it, it exists for every exchange (Tardis fills `timestamp` with it when the
 * exchange gives none), and a recording's `t` is always a receive time (the recorder's poll, the
 * Binance importer's local time): what a bot could have known at that moment.
 *
 * Book: rows with is_snapshot=true that follow a row without it start a new snapshot run, which
 * clears the book (Tardis writes one at the start of each day and after every reconnect); the run
 * ends at the next update row. Grid times from the run's first row to its last are not written (the
 * book is partial there); the grid resumes after the run. Updates before the first snapshot are counted and skipped (the book
 * is unknown then), and no grid time is written until a snapshot run has completed. Trades are
 * merged by local_timestamp (a trade before a book row of the same time, as hftbacktest orders
 * them); trades with side `unknown` cannot be written (a recording's trade has the taker's side)
 * and are counted.
 */
import { existsSync, statSync } from 'node:fs';
import { discard } from './discard-output.js';
import { ConfigError } from '../../src/model/errors.js';
import { RecordingWriter } from '../../src/recording/recording-writer.js';
import { CaptureFormatError } from './capture-format-error.js';
import { GridSampler, trimDecimal } from './grid-sampler.js';
import { LevelBook, OffTickError } from './level-book.js';
import { parseTardisBookRow, parseTardisHeader, parseTardisTradeRow, type TardisBookRow, type TardisTradeRow } from './tardis-csv.js';
import { readTextLines } from './text-lines.js';
import type { RecordingImportOptions } from './import-options.js';

export interface TardisImportOptions extends RecordingImportOptions {
  /** The incremental_book_L2 CSV (gzip when it ends in .gz). */
  readonly book: string;
  /** The trades CSV of the same symbol and period. */
  readonly trades?: string;
  /** Symbol to keep from a file that holds several; default: the file's only symbol. */
  readonly symbol?: string;
}

export interface TardisImportSummary {
  readonly symbol: string | undefined;
  readonly snapshots: number;
  readonly trades: number;
  readonly tradesUnknownSide: number;
  readonly snapshotRuns: number;
  readonly updatesApplied: number;
  readonly updatesBeforeSnapshot: number;
  readonly otherSymbolRows: number;
  /** Grid times not written because the rebuilt book was crossed there. */
  readonly crossedSkipped: number;
  readonly firstT: number | undefined;
  readonly lastT: number | undefined;
  readonly files: readonly string[];
}

type Located<R> = { readonly row: R; readonly where: string };

async function* rows<R extends TardisBookRow | TardisTradeRow>(
  file: string,
  kind: 'book' | 'trade',
  onBytes: (done: number) => void,
): AsyncGenerator<Located<R>> {
  let columns: ReturnType<typeof parseTardisHeader> | undefined;
  let lastT = -Infinity;
  for await (const line of readTextLines([file], onBytes)) {
    const where = `${line.file}:${line.lineNo}`;
    if (!columns) {
      columns = parseTardisHeader(kind, line.text, where);
      continue;
    }
    if (line.text.length === 0) continue;
    const row = (kind === 'book' ? parseTardisBookRow(columns, line.text, where) : parseTardisTradeRow(columns, line.text, where)) as R;
    if (row.t < lastT) throw new CaptureFormatError(`${where}: local_timestamp goes back in time (the file must be in arrival order)`);
    lastT = row.t;
    yield { row, where };
  }
}

/** Both files in local_timestamp order; a trade first when the times are equal. */
async function* merged(
  book: AsyncGenerator<Located<TardisBookRow>>,
  trades: AsyncGenerator<Located<TardisTradeRow>> | undefined,
): AsyncGenerator<Located<TardisBookRow | TardisTradeRow>> {
  if (!trades) {
    yield* book;
    return;
  }
  let b = await book.next();
  let tr = await trades.next();
  while (!b.done || !tr.done) {
    if (!tr.done && (b.done || tr.value.row.t <= b.value.row.t)) {
      yield tr.value;
      tr = await trades.next();
    } else if (!b.done) {
      yield b.value;
      b = await book.next();
    }
  }
}

export async function importTardis(options: TardisImportOptions): Promise<TardisImportSummary> {
  if (existsSync(options.out)) throw new ConfigError(`import: ${options.out} exists; choose another --out or remove it`);
  const inputs = [options.book, ...(options.trades ? [options.trades] : [])];
  for (const f of inputs) if (!existsSync(f)) throw new ConfigError(`import tardis: ${f} does not exist`);
  const total = inputs.reduce((s, f) => s + statSync(f).size, 0);
  const done = [0, 0];
  const progress =
    (i: number) =>
    (d: number): void => {
      done[i] = d;
      options.onProgress?.(done[0]! + done[1]!, total);
    };
  const book = new LevelBook(Number(options.market.moneyPrec));
  const keepTrades = options.trades !== undefined;
  const writer = new RecordingWriter({ out: options.out, market: options.market, source: 'import tardis', trades: keepTrades, flushEvery: 1000 });
  const sampler = new GridSampler({ writer, market: options.market.name, intervalMs: options.intervalMs, limit: options.limit });
  const n = { trades: 0, unknownSide: 0, runs: 0, applied: 0, beforeSnapshot: 0, otherSymbol: 0 };
  let symbol = options.symbol;
  let inRun = false;
  let synced = false;
  let runT = 0;

  try {
    const source = merged(
      rows<TardisBookRow>(options.book, 'book', progress(0)),
      options.trades ? rows<TardisTradeRow>(options.trades, 'trade', progress(1)) : undefined,
    );
    for await (const { row, where } of source) {
      symbol ??= row.symbol;
      if (row.symbol !== symbol) {
        if (options.symbol === undefined) {
          throw new CaptureFormatError(`${where}: symbol "${row.symbol}" after "${symbol}": the file holds several symbols; choose one with --symbol`);
        }
        n.otherSymbol += 1;
        continue;
      }
      if (row.kind === 'trade') {
        if (!inRun) sampler.advance(row.t, synced ? book : undefined);
        if (row.side === 'unknown') n.unknownSide += 1;
        else if (sampler.firstT !== undefined) {
          writer.write({ type: 'trade', t: row.t, price: trimDecimal(row.price), amount: trimDecimal(row.amount), side: row.side });
          n.trades += 1;
        }
        continue;
      }
      if (row.isSnapshot) {
        if (!inRun) {
          // The book as it stood before this snapshot is still a true state for the grid times before it.
          sampler.advance(row.t, synced ? book : undefined);
          book.clear();
          inRun = true;
          n.runs += 1;
        }
        runT = row.t;
        set(book, row, where);
        continue;
      }
      if (inRun) {
        inRun = false;
        synced = true;
        // The book is a true state again only after the run's last row: grid times from the run's
        // first row to its last are skipped (a gap), the next one is after runT.
        sampler.advance(runT, undefined);
        sampler.advance(runT, book);
      }
      sampler.advance(row.t, synced ? book : undefined);
      if (!synced) {
        n.beforeSnapshot += 1;
        continue;
      }
      set(book, row, where);
      n.applied += 1;
    }
    if (sampler.snapshots === 0)
      throw new CaptureFormatError(`${options.book}: no complete book at any grid time (no snapshot run, or shorter than --interval): nothing to import`);
  } catch (error) {
    await discard(writer);
    throw error;
  }
  await writer.close();
  return {
    symbol,
    snapshots: sampler.snapshots,
    trades: n.trades,
    tradesUnknownSide: n.unknownSide,
    snapshotRuns: n.runs,
    updatesApplied: n.applied,
    updatesBeforeSnapshot: n.beforeSnapshot,
    otherSymbolRows: n.otherSymbol,
    crossedSkipped: sampler.crossed,
    firstT: sampler.firstT,
    lastT: sampler.lastT,
    files: writer.files,
  };
}

function set(book: LevelBook, row: TardisBookRow, where: string): void {
  try {
    book.set(row.side, row.price, row.amount);
  } catch (error) {
    if (error instanceof OffTickError) throw new CaptureFormatError(`${where}: ${error.message} (--money-prec)`, error);
    throw error;
  }
}
