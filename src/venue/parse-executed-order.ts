import { z } from 'zod';
import { orderKindOfType } from './parse-order.js';
import type { ExecutedOrder } from '../model/executed-order.js';
import { toStpMode } from '../model/order.js';
import { parseShape, withAliases, zDecimal, zIntLike } from './parse-shape.js';

/** Live-exchange spellings mapped onto the contract's (exchange-facts §8). */
const ALIASES = { clientOrderId: 'client_order_id', dealFee: 'deal_fee', dealStock: 'deal_stock', dealMoney: 'deal_money' } as const;

const recordSchema = z.preprocess(
  withAliases(ALIASES),
  z.object({
    id: zIntLike,
    client_order_id: z.string().nullish(),
    market: z.string().min(1).optional(),
    side: z.enum(['buy', 'sell']),
    type: z.string(),
    amount: zDecimal,
    price: zDecimal,
    ctime: z.number(),
    ftime: z.number(),
    makerFee: zDecimal,
    takerFee: zDecimal,
    deal_fee: zDecimal,
    deal_stock: zDecimal,
    deal_money: zDecimal,
    postOnly: z.boolean().optional(),
    ioc: z.boolean().optional(),
    rpi: z.boolean().optional(),
    status: z.string().optional(),
    feeAsset: z.string().optional(),
    stp: z.string().optional(),
  }),
);

const groupedSchema = z.record(z.string(), z.array(recordSchema));
const flatSchema = z.array(recordSchema);

/**
 * The executed-orders history: an object keyed by market (the documented form) or a flat array; merged
 * newest finished first. `left` = amount − dealStock, `timestamp` = ctime (the record has neither).
 */
export function parseOrderHistory(raw: unknown, endpoint = 'order history'): ExecutedOrder[] {
  // the two forms are told apart first, so a wrong field is named by its path rather than as "no union member matched"
  const parsed = Array.isArray(raw)
    ? parseShape(flatSchema, raw, endpoint, 'executed-orders history')
    : parseShape(groupedSchema, raw, endpoint, 'executed-orders history');
  const groups: Array<[string | undefined, z.output<typeof recordSchema>[]]> = Array.isArray(parsed) ? [[undefined, parsed]] : Object.entries(parsed);
  const out: ExecutedOrder[] = [];
  for (const [key, records] of groups) {
    for (const r of records) {
      const market = r.market ?? key;
      if (market === undefined) parseShape(z.object({ market: z.string() }), r, endpoint, 'executed order (no market)');
      out.push({
        orderId: r.id,
        clientOrderId: r.client_order_id ?? '',
        market: market as string,
        side: r.side,
        kind: orderKindOfType(r.type),
        timestamp: r.ctime,
        amount: r.amount,
        price: r.price,
        left: r.amount.minus(r.deal_stock),
        dealStock: r.deal_stock,
        dealMoney: r.deal_money,
        dealFee: r.deal_fee,
        postOnly: r.postOnly ?? false,
        ioc: r.ioc ?? false,
        rpi: r.rpi ?? false,
        stp: toStpMode(r.stp) ?? 'no',
        status: r.status ?? '',
        finishedAt: r.ftime,
        makerFee: r.makerFee,
        takerFee: r.takerFee,
        feeAsset: r.feeAsset ?? '',
      });
    }
  }
  return out.sort((a, b) => b.finishedAt - a.finishedAt || b.orderId - a.orderId);
}
