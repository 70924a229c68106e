/**
 * The DataFeed's unit of work: a run of consecutive recording lines already in memory, from either source —
 * decoded text lines (`LineChunk`) or a block of the binary cache (`BlockChunk`) — behind one interface, so
 * the feed's time filtering and event building is written once and both sources give the same events.
 */
import { Decimal } from '../../src/model/decimal.js';
import { priceToTicks, RecordedSnapshot, type MarketLine, type RecordingLine } from '../../src/recording/recording-format.js';
import type { TickTrade } from '../../src/fill-model/fill-model.js';
import { KIND_BOOK, KIND_MARKET, KIND_TRADE, type CacheBlock } from './cache-block.js';
import { CachedSnapshot } from './cached-snapshot.js';
import { ticksOf } from './plain-decimal.js';

export { KIND_BOOK, KIND_MARKET, KIND_TRADE };

export interface FeedTrade {
  readonly trade: TickTrade;
  readonly price: Decimal;
}

export interface FeedChunk {
  readonly length: number;
  /** KIND_BOOK, KIND_TRADE or KIND_MARKET. */
  kind(i: number): number;
  /** Time of a book or trade line. */
  t(i: number): number;
  market(i: number): MarketLine;
  /** A book line's snapshot; `tickScale` = 10^moneyPrec of the run's market. */
  snapshot(i: number, tickScale: number): RecordedSnapshot;
  trade(i: number, tickScale: number): FeedTrade;
}

/** Decoded text lines (src/recording/recording-format.ts `readRecordingBatches`). */
export class LineChunk implements FeedChunk {
  constructor(readonly lines: readonly RecordingLine[]) {}
  get length(): number {
    return this.lines.length;
  }
  kind(i: number): number {
    const type = this.lines[i]!.type;
    return type === 'book' ? KIND_BOOK : type === 'trade' ? KIND_TRADE : KIND_MARKET;
  }
  t(i: number): number {
    return (this.lines[i] as { t: number }).t;
  }
  market(i: number): MarketLine {
    return this.lines[i] as MarketLine;
  }
  snapshot(i: number, tickScale: number): RecordedSnapshot {
    const line = this.lines[i] as Extract<RecordingLine, { type: 'book' }>;
    return new RecordedSnapshot(line.t, line.book, tickScale);
  }
  trade(i: number, tickScale: number): FeedTrade {
    const line = this.lines[i] as Extract<RecordingLine, { type: 'trade' }>;
    return {
      price: new Decimal(line.price),
      trade: { t: line.t, priceTicks: priceToTicks(line.price, tickScale), amount: new Decimal(line.amount), takerSide: line.side },
    };
  }
}

/** A block of the binary cache (./cache-block.ts). */
export class BlockChunk implements FeedChunk {
  constructor(readonly block: CacheBlock) {}
  get length(): number {
    return this.block.events;
  }
  kind(i: number): number {
    return this.block.kinds[i]!;
  }
  t(i: number): number {
    const b = this.block;
    return b.kinds[i] === KIND_BOOK ? b.bookT[b.index[i]!]! : b.tradeT[b.index[i]!]!;
  }
  market(i: number): MarketLine {
    return this.block.markets[this.block.index[i]!]!;
  }
  snapshot(i: number, tickScale: number): RecordedSnapshot {
    return new CachedSnapshot(this.block, this.block.index[i]!, tickScale);
  }
  trade(i: number, tickScale: number): FeedTrade {
    const b = this.block;
    const j = b.index[i]!;
    return {
      price: b.tradePriceDecimal(j),
      trade: {
        t: b.tradeT[j]!,
        priceTicks: ticksOf(b.tradePrice[j]!, b.tradePriceDec[j]!, tickScale),
        amount: b.tradeAmountDecimal(j),
        takerSide: b.tradeSide[j] === 0 ? 'buy' : 'sell',
      },
    };
  }
}
