import { z } from 'zod';
import type { BookLevel, OrderBook } from '../model/book.js';
import { parseShape, zDecimal } from './parse-shape.js';

const level = z.tuple([zDecimal, zDecimal]).transform(([price, amount]): BookLevel => ({ price, amount }));

const bookSchema = z.object({
  ticker_id: z.string(),
  timestamp: z.number(),
  asks: z.array(level),
  bids: z.array(level),
});

/** The public order book record into the domain OrderBook (asks ascending, bids descending, as sent). */
export function parseOrderBook(raw: unknown, endpoint = '/api/v4/public/orderbook'): OrderBook {
  const w = parseShape(bookSchema, raw, endpoint, 'order book record');
  return { market: w.ticker_id, timestamp: w.timestamp, asks: w.asks, bids: w.bids };
}
