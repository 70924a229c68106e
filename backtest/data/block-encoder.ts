/**
 * Writes one block of the recording cache: lines into columns, laid out as ./cache-block.ts describes (the reader's
 * side, CacheBlock, is there too).
 */
import type { BookLine, MarketLine, RecordingLine, TradeLine } from '../../src/recording/recording-format.js';
import type { WireLevel } from '../../src/venue/wire.js';
import { BLOCK_EVENTS, BLOCK_LEVELS, KIND_BOOK, KIND_MARKET, KIND_TRADE } from './cache-block.js';
import { ColumnWriter } from './cache-columns.js';
import { parsePlainDecimal } from './plain-decimal.js';

const BOOK_KEYS = new Set(['ticker_id', 'timestamp', 'asks', 'bids']);

/** Collects lines into columns; `add` refuses (with the reason) a line the cache cannot reproduce exactly. */
export class BlockEncoder {
  #kinds: number[] = [];
  #bookT: number[] = [];
  #bookTs: number[] = [];
  #bookTicker: number[] = [];
  #levelStart: number[] = [0];
  #askCount: number[] = [];
  #price: number[] = [];
  #priceDec: number[] = [];
  #amount: number[] = [];
  #amountDec: number[] = [];
  #tradeT: number[] = [];
  #tradePrice: number[] = [];
  #tradePriceDec: number[] = [];
  #tradeAmount: number[] = [];
  #tradeAmountDec: number[] = [];
  #tradeSide: number[] = [];
  #tickers: string[] = [];
  #tickerIndex = new Map<string, number>();
  #markets: MarketLine[] = [];
  readonly #num: [number, number] = [0, 0];

  constructor(readonly blockEvents = BLOCK_EVENTS) {}

  get events(): number {
    return this.#kinds.length;
  }

  /** True when the block should be written before more lines are added. */
  get full(): boolean {
    return this.#kinds.length >= this.blockEvents || this.#price.length >= BLOCK_LEVELS;
  }

  /** Adds one decoded line; returns why it cannot be cached exactly (the encoder is then unchanged), or undefined. */
  add(line: RecordingLine): string | undefined {
    if (line.type === 'market') {
      this.#markets.push(line);
      this.#kinds.push(KIND_MARKET);
      return undefined;
    }
    if (line.type === 'trade') return this.#addTrade(line);
    return this.#addBook(line);
  }

  #addTrade(line: TradeLine): string | undefined {
    const n = this.#num;
    const side = line.side === 'buy' ? 0 : line.side === 'sell' ? 1 : -1;
    if (side < 0) return `trade side ${JSON.stringify(line.side)}`;
    if (!parsePlainDecimal(line.price, n)) return `trade price ${JSON.stringify(line.price)}`;
    const [price, priceDec] = n;
    if (!parsePlainDecimal(line.amount, n)) return `trade amount ${JSON.stringify(line.amount)}`;
    this.#tradeT.push(line.t);
    this.#tradePrice.push(price);
    this.#tradePriceDec.push(priceDec);
    this.#tradeAmount.push(n[0]);
    this.#tradeAmountDec.push(n[1]);
    this.#tradeSide.push(side);
    this.#kinds.push(KIND_TRADE);
    return undefined;
  }

  #addBook(line: BookLine): string | undefined {
    const b = line.book;
    let fields = 0;
    for (const k in b) {
      if (!BOOK_KEYS.has(k)) return `book field ${JSON.stringify(k)}`;
      fields += 1;
    }
    if (fields !== BOOK_KEYS.size) return `book fields ${Object.keys(b).join(',')}`;
    if (typeof b.timestamp !== 'number') return 'book timestamp is not a number';
    if (typeof b.ticker_id !== 'string') return 'book ticker_id is not a string';
    const mark = this.#price.length;
    const why = this.#addLevels(b.asks) ?? this.#addLevels(b.bids);
    if (why !== undefined) {
      for (const col of [this.#price, this.#priceDec, this.#amount, this.#amountDec]) col.length = mark;
      return why;
    }
    let ticker = this.#tickerIndex.get(b.ticker_id);
    if (ticker === undefined) {
      ticker = this.#tickers.length;
      this.#tickers.push(b.ticker_id);
      this.#tickerIndex.set(b.ticker_id, ticker);
    }
    this.#bookT.push(line.t);
    this.#bookTs.push(b.timestamp);
    this.#bookTicker.push(ticker);
    this.#askCount.push(b.asks.length);
    this.#levelStart.push(this.#price.length);
    this.#kinds.push(KIND_BOOK);
    return undefined;
  }

  #addLevels(levels: readonly WireLevel[]): string | undefined {
    const n = this.#num;
    for (const l of levels) {
      if (!Array.isArray(l) || l.length !== 2) return `level ${JSON.stringify(l)}`;
      const p: unknown = l[0];
      const a: unknown = l[1];
      if (typeof p !== 'string' || !parsePlainDecimal(p, n)) return `level price ${JSON.stringify(p)}`;
      this.#price.push(n[0]);
      this.#priceDec.push(n[1]);
      if (typeof a !== 'string' || !parsePlainDecimal(a, n)) return `level amount ${JSON.stringify(a)}`;
      this.#amount.push(n[0]);
      this.#amountDec.push(n[1]);
    }
    return undefined;
  }

  /** The block's payload; the encoder is then empty again. */
  encode(): Uint8Array {
    const w = new ColumnWriter();
    const extras = new TextEncoder().encode(JSON.stringify({ tickers: this.#tickers, markets: this.#markets }));
    for (const v of [this.#kinds.length, this.#bookT.length, this.#tradeT.length, this.#price.length, extras.length, 0]) w.u32(v);
    w.smallInts(this.#kinds);
    w.numbers(this.#bookT);
    w.numbers(this.#bookTs);
    w.numbers(this.#bookTicker);
    w.numbers(this.#levelStart);
    w.numbers(this.#askCount);
    w.numbers(this.#price);
    w.smallInts(this.#priceDec);
    w.numbers(this.#amount);
    w.smallInts(this.#amountDec);
    w.numbers(this.#tradeT);
    w.numbers(this.#tradePrice);
    w.smallInts(this.#tradePriceDec);
    w.numbers(this.#tradeAmount);
    w.smallInts(this.#tradeAmountDec);
    w.smallInts(this.#tradeSide);
    w.bytes(extras);
    const out = w.result().slice();
    this.#reset();
    return out;
  }

  #reset(): void {
    for (const col of [this.#kinds, this.#bookT, this.#bookTs, this.#bookTicker, this.#askCount, this.#price, this.#priceDec, this.#amount, this.#amountDec])
      col.length = 0;
    for (const col of [this.#tradeT, this.#tradePrice, this.#tradePriceDec, this.#tradeAmount, this.#tradeAmountDec, this.#tradeSide]) col.length = 0;
    this.#levelStart = [0];
    this.#tickers = [];
    this.#tickerIndex = new Map();
    this.#markets = [];
  }
}
