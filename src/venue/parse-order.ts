import { z } from 'zod';
import type { Order, OrderType, StpMode } from '../model/order.js';
import { parseShape, withAliases, zDecimal, zIntLike } from './parse-shape.js';

const STP: Readonly<Record<string, StpMode>> = {
  no: 'no',
  cancel_both: 'cancel_both',
  cancel_new: 'cancel_new',
  cancel_old: 'cancel_old',
  cb: 'cancel_both',
  cn: 'cancel_new',
  co: 'cancel_old',
  '': 'no',
};

/** Live-exchange spellings (exchange-facts §8) mapped onto the contract's. */
const ORDER_ALIASES = {
  orderId: 'order_id',
  clientOrderId: 'client_order_id',
  dealMoney: 'deal_money',
  dealStock: 'deal_stock',
  dealFee: 'deal_fee',
  activationPrice: 'activation_price',
} as const;

const orderSchema = z.preprocess(
  withAliases(ORDER_ALIASES),
  z.object({
    order_id: zIntLike,
    client_order_id: z.string().nullish(),
    market: z.string().min(1),
    side: z.enum(['buy', 'sell']),
    type: z.string(),
    timestamp: z.number(),
    deal_money: zDecimal,
    deal_stock: zDecimal,
    amount: zDecimal,
    left: zDecimal,
    deal_fee: zDecimal,
    price: zDecimal,
    activation_price: zDecimal.optional(),
    postOnly: z.boolean().optional(),
    ioc: z.boolean().optional(),
    rpi: z.boolean().optional(),
    stp: z
      .string()
      .optional()
      .refine((s) => s === undefined || s in STP, 'expected one of no, cancel_both, cancel_new, cancel_old, cb, cn, co'),
    status: z.string().optional(),
  }),
);

function orderType(type: string): OrderType {
  return /stop/i.test(type) ? 'stop limit' : 'limit';
}

/** Schema of one order record in either dialect; exported for list endpoints. */
export const wireOrderSchema = orderSchema.transform(
  (w): Order => ({
    orderId: w.order_id,
    clientOrderId: w.client_order_id ?? '',
    market: w.market,
    side: w.side,
    type: orderType(w.type),
    timestamp: w.timestamp,
    amount: w.amount,
    price: w.price,
    ...(w.activation_price !== undefined ? { activationPrice: w.activation_price } : {}),
    left: w.left,
    dealStock: w.deal_stock,
    dealMoney: w.deal_money,
    dealFee: w.deal_fee,
    postOnly: w.postOnly ?? false,
    ioc: w.ioc ?? false,
    rpi: w.rpi ?? false,
    stp: STP[w.stp ?? 'no'] ?? 'no',
    status: w.status ?? '',
  }),
);

/** One order record (order/new, order/stop_limit, order/cancel), either dialect, into the domain Order. */
export function parseOrder(raw: unknown, endpoint = 'order'): Order {
  return parseShape(wireOrderSchema, raw, endpoint, 'order record');
}

/** The open-orders list: an array of order records. */
export function parseOrders(raw: unknown, endpoint = 'orders'): Order[] {
  return parseShape(z.array(wireOrderSchema), raw, endpoint, 'list of order records');
}
