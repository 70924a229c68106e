import type { OrderBook } from '../model/book.js';
import { RecordedSnapshot } from './recording-format.js';

/**
 * A domain order book (a venue's answer, as the paper venue polls its upstream's) as the fill model reads a snapshot:
 * the contract's record (decimals as strings, exactly as the levels hold them) seen at `t`, on the market's price
 * grid (`moneyPrec`). What a recording line would have held for the same answer, so a book fills the same whether
 * it was polled live or replayed from a file.
 */
export function snapshotOfBook(book: OrderBook, t: number, moneyPrec: number): RecordedSnapshot {
  return new RecordedSnapshot(
    t,
    {
      ticker_id: book.market,
      timestamp: Math.floor(book.timestamp),
      asks: book.asks.map((l) => [l.price.toFixed(), l.amount.toFixed()]),
      bids: book.bids.map((l) => [l.price.toFixed(), l.amount.toFixed()]),
    },
    10 ** moneyPrec,
  );
}
