/**
 * `bot import binance-depth`: turns a Binance diff-depth capture into a recording in the recorder's
 * format. The book is rebuilt with Binance's sync rule (binance-book.ts) and sampled every
 * `intervalMs` of local receive time on a fixed grid (t = k × interval): the snapshot written at grid
 * time T is the book after every message received before T, as a poller asking at T would have seen
 * it, limited to `limit` levels a side (grid-sampler.ts, shared with the other importers). A price off
 * the --money-prec grid is a CaptureFormatError naming its line. Trades are kept (local receive time, aggressor side). Sampling
 * pauses while the book is out of sync (a sequence gap until the next REST snapshot).
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../../src/model/errors.js';
import type { WireMarket } from '../../src/venue/wire.js';
import { RecordingWriter } from '../../src/recording/recording-writer.js';
import { BinanceBook } from './binance-book.js';
import { readBinanceCapture } from './binance-capture.js';
import { CaptureFormatError } from './capture-format-error.js';
import { discard } from './discard-output.js';
import { OffTickError } from './level-book.js';
import { GridSampler, trimDecimal } from './grid-sampler.js';
import type { RecordingImportOptions } from './import-options.js';

export { trimDecimal };

export interface BinanceImportOptions extends RecordingImportOptions {
  readonly files: readonly string[];
  /** Keep the capture's trades. Default true. */
  readonly trades?: boolean;
}

export interface BinanceImportSummary {
  readonly snapshots: number;
  readonly trades: number;
  readonly diffsApplied: number;
  readonly diffsDropped: number;
  readonly gaps: number;
  readonly firstT: number | undefined;
  readonly lastT: number | undefined;
  readonly files: readonly string[];
}

export async function importBinanceDepth(options: BinanceImportOptions): Promise<BinanceImportSummary> {
  // Appending to an earlier import would repeat its period: refuse instead of resuming.
  if (existsSync(options.out)) throw new ConfigError(`import: ${options.out} exists; choose another --out or remove it`);
  const scale = 10 ** Number(options.market.moneyPrec);
  const book = new BinanceBook(scale);
  const keepTrades = options.trades ?? true;
  const writer = new RecordingWriter({ out: options.out, market: options.market, source: 'import binance-depth', trades: keepTrades, flushEvery: 1000 });
  const sampler = new GridSampler({ writer, market: options.market.name, intervalMs: options.intervalMs, limit: options.limit });
  let trades = 0;

  try {
    for await (const m of readBinanceCapture(options.files, options.onProgress)) {
      sampler.advance(m.t, book.state === 'synced' ? book : undefined);
      switch (m.kind) {
        case 'snapshot':
          offTick(() => book.snapshot(m), m.where);
          break;
        case 'diff':
          offTick(() => book.diff(m), m.where);
          break;
        case 'trade':
          if (keepTrades && sampler.firstT !== undefined) {
            writer.write({ type: 'trade', t: m.t, price: trimDecimal(m.price), amount: trimDecimal(m.qty), side: m.buyerMaker ? 'sell' : 'buy' });
            trades += 1;
          }
          break;
        case 'bookTicker':
          break;
      }
    }
  } catch (error) {
    await discard(writer);
    throw error;
  }
  await writer.close();
  return {
    snapshots: sampler.snapshots,
    trades,
    diffsApplied: book.stats.applied,
    diffsDropped: book.stats.dropped,
    gaps: book.stats.gaps,
    firstT: sampler.firstT,
    lastT: sampler.lastT,
    files: writer.files,
  };
}

/** A price off the --money-prec grid, named by the line that carries it (or the first buffered diff's snapshot line). */
function offTick(apply: () => unknown, where: string | undefined): void {
  try {
    apply();
  } catch (error) {
    if (error instanceof OffTickError) throw new CaptureFormatError(`${where ?? 'capture'}: ${error.message} (--money-prec)`, error);
    throw error;
  }
}

/** A rules record for a market the capture does not describe (fees as percent strings, as the venue). */
export function wireMarketFromOptions(o: {
  name: string;
  stock: string;
  money: string;
  stockPrec: number;
  moneyPrec: number;
  minAmount: string;
  minTotal: string;
  maxTotal?: string;
  makerFeePercent: string;
  takerFeePercent: string;
}): WireMarket {
  return {
    name: o.name,
    stock: o.stock,
    money: o.money,
    stockPrec: String(o.stockPrec),
    moneyPrec: String(o.moneyPrec),
    feePrec: '4',
    makerFee: o.makerFeePercent,
    takerFee: o.takerFeePercent,
    minAmount: o.minAmount,
    minTotal: o.minTotal,
    maxTotal: o.maxTotal ?? '0',
    tradesEnabled: true,
    isCollateral: false,
    type: 'spot',
  };
}
