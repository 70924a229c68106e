/**
 * `bot import binance-depth`: turns a Binance diff-depth capture into a recording in the recorder's
 * format. The book is rebuilt with Binance's sync rule (binance-book.ts) and sampled every
 * `intervalMs` of local receive time on a fixed grid (t = k × interval): the snapshot written at grid
 * time T is the book after every message received before T, as a poller asking at T would have seen
 * it, limited to `limit` levels a side. Trades are kept (local receive time, aggressor side). Sampling
 * pauses while the book is out of sync (a sequence gap until the next REST snapshot).
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../../src/model/errors.js';
import type { WireLevel, WireMarket } from '../../src/venue/wire.js';
import { RecordingWriter } from '../record/recording-writer.js';
import { BinanceBook } from './binance-book.js';
import { readBinanceCapture, type BinanceLevel } from './binance-capture.js';

export interface BinanceImportOptions {
  readonly files: readonly string[];
  readonly intervalMs: number;
  /** Levels a side per snapshot (1-100; the contract's order book allows at most 100). */
  readonly limit: number;
  readonly out: string;
  /** The rules record written at the head (the capture has none). */
  readonly market: WireMarket;
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

/** "61837.63000000" → "61837.63": the venue's canonical form, and shorter lines to parse. */
export function trimDecimal(text: string): string {
  if (text.indexOf('.') < 0) return text;
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48 /* 0 */) end -= 1;
  if (text.charCodeAt(end - 1) === 46 /* . */) end -= 1;
  return text.slice(0, end);
}

function levels(src: readonly BinanceLevel[]): WireLevel[] {
  return src.map(([p, q]) => [trimDecimal(p), trimDecimal(q)]);
}

export async function importBinanceDepth(options: BinanceImportOptions): Promise<BinanceImportSummary> {
  if (!(options.intervalMs > 0)) throw new RangeError('intervalMs must be > 0');
  if (!(options.limit >= 1 && options.limit <= 100)) throw new RangeError('limit must be 1-100');
  // Appending to an earlier import would repeat its period: refuse instead of resuming.
  if (existsSync(options.out)) throw new ConfigError(`import: ${options.out} exists; choose another --out or remove it`);
  const scale = 10 ** Number(options.market.moneyPrec);
  const book = new BinanceBook(scale);
  const writer = new RecordingWriter({ out: options.out, market: options.market, source: 'import binance-depth', trades: options.trades ?? true, flushEvery: 1000 });
  const keepTrades = options.trades ?? true;
  let next: number | undefined;
  let snapshots = 0;
  let trades = 0;
  let firstT: number | undefined;
  let lastT: number | undefined;

  const sampleUpTo = (t: number): void => {
    if (book.state !== 'synced') {
      next = undefined;
      return;
    }
    next ??= Math.ceil(t / options.intervalMs) * options.intervalMs;
    while (next < t) {
      writer.write({
        type: 'book',
        t: next,
        book: {
          ticker_id: options.market.name,
          timestamp: Math.floor(next / 1000),
          asks: levels(book.asks.top(options.limit)),
          bids: levels(book.bids.top(options.limit)),
        },
      });
      snapshots += 1;
      firstT ??= next;
      lastT = next;
      next += options.intervalMs;
    }
  };

  for await (const m of readBinanceCapture(options.files)) {
    sampleUpTo(m.t);
    switch (m.kind) {
      case 'snapshot':
        book.snapshot(m);
        break;
      case 'diff':
        book.diff(m);
        break;
      case 'trade':
        if (keepTrades && firstT !== undefined) {
          writer.write({ type: 'trade', t: m.t, price: trimDecimal(m.price), amount: trimDecimal(m.qty), side: m.buyerMaker ? 'sell' : 'buy' });
          trades += 1;
        }
        break;
      case 'bookTicker':
        break;
    }
  }
  await writer.close();
  return {
    snapshots,
    trades,
    diffsApplied: book.stats.applied,
    diffsDropped: book.stats.dropped,
    gaps: book.stats.gaps,
    firstT,
    lastT,
    files: writer.files,
  };
}

/** A rules record for a market the capture does not describe (fees as percent strings, as the venue). */
export function wireMarketFromOptions(o: {
  name: string; stock: string; money: string; stockPrec: number; moneyPrec: number;
  minAmount: string; minTotal: string; maxTotal?: string; makerFeePercent: string; takerFeePercent: string;
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
