import { z } from 'zod';
import type { PublicTrade } from '../model/book.js';
import { parseShape, zDecimal } from './parse-shape.js';

/**
 * The recent-trades record (exchange-facts §6), strictly: every field present with its type, the trade
 * id a non-negative integer, the side `buy`/`sell`, amounts positive. Anything else is a
 * MalformedResponseError, never a trade with a guessed field: a recorder writes what it parses for good.
 */
const tradeSchema = z
  .object({
    tradeID: z.number().int().nonnegative(),
    price: zDecimal,
    quote_volume: zDecimal,
    base_volume: zDecimal,
    trade_timestamp: z.number().nonnegative().finite(),
    type: z.enum(['buy', 'sell']),
  })
  .refine((t) => t.price.gt(0) && t.quote_volume.gt(0), { message: 'price and amount must be positive' });

const tradesSchema = z.array(tradeSchema);

/** `GET /api/v4/public/trades/{market}` into domain trades, in the venue's order (newest first). */
export function parsePublicTrades(raw: unknown, endpoint: string, market: string): PublicTrade[] {
  const rows = parseShape(tradesSchema, raw, endpoint, 'recent trades list');
  return rows.map((r) => ({
    market,
    id: r.tradeID,
    // seconds (whole on the live venue) to the domain's Unix ms
    time: Math.round(r.trade_timestamp * 1000),
    price: r.price,
    // the venue's naming: quote_volume is the stock amount, base_volume the money value
    amount: r.quote_volume,
    value: r.base_volume,
    takerSide: r.type,
  }));
}
