import { z } from 'zod';
import type { Deal } from '../model/order.js';
import { parseShape, withAliases, zDecimal, zIntLike } from './parse-shape.js';

const dealSchema = z.preprocess(
  withAliases({ order_id: 'orderId', client_order_id: 'clientOrderId' }),
  z.object({
    id: zIntLike,
    time: z.number(),
    side: z.enum(['buy', 'sell']),
    role: z.union([z.literal(1), z.literal(2)]),
    amount: zDecimal,
    price: zDecimal,
    deal: zDecimal,
    fee: zDecimal,
    orderId: zIntLike,
    clientOrderId: z.string().nullish(),
    market: z.string().optional(),
  }),
);

type WireDealOut = z.output<typeof dealSchema>;

const historySchema = z.union([z.array(dealSchema), z.record(z.string(), z.array(dealSchema))]);

/**
 * Executed history: an array when a market was asked for, otherwise an object keyed by market.
 * The result is one list, newest first.
 */
export function parseDeals(raw: unknown, market?: string, endpoint = '/api/v4/trade-account/executed-history'): Deal[] {
  const w = parseShape(historySchema, raw, endpoint, 'executed history');
  const deals = Array.isArray(w) ? w.map((d) => toDeal(d, d.market ?? market ?? '')) : Object.entries(w).flatMap(([m, list]) => list.map((d) => toDeal(d, m)));
  return deals.sort((a, b) => b.time - a.time || b.id - a.id);
}

function toDeal(d: WireDealOut, market: string): Deal {
  return {
    id: d.id,
    time: d.time,
    market,
    side: d.side,
    role: d.role === 1 ? 'maker' : 'taker',
    amount: d.amount,
    price: d.price,
    deal: d.deal,
    fee: d.fee,
    orderId: d.orderId,
    clientOrderId: d.clientOrderId ?? '',
  };
}
