import { z } from 'zod';
import { parseDecimal, ZERO, type Decimal } from '../model/decimal.js';
import { toStpMode, type Order, type OrderKind } from '../model/order.js';
import { parseShape, withAliases, zDecimal, zIntLike } from './parse-shape.js';

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
      .refine((s) => s === undefined || s === '' || toStpMode(s) !== undefined, 'expected one of no, cancel_both, cancel_new, cancel_old, cb, cn, co'),
    status: z.string().optional(),
  }),
);

/** The record's `type` ("limit", "stop limit"; the live venue's other spellings of a stop order too) as an OrderKind. */
export function orderKindOfType(type: string): OrderKind {
  return /stop/i.test(type) ? 'stop-limit' : 'limit';
}

/** Schema of one order record in either dialect; exported for list endpoints. */
export const wireOrderSchema = orderSchema.transform(
  (w): Order => ({
    orderId: w.order_id,
    clientOrderId: w.client_order_id ?? '',
    market: w.market,
    side: w.side,
    kind: orderKindOfType(w.type),
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
    stp: toStpMode(w.stp) ?? 'no',
    status: w.status ?? '',
  }),
);

/**
 * The hot path (every order placed or cancelled): a hand-written check of the common, well-formed
 * record that gives exactly what `wireOrderSchema` gives, four to six times cheaper than zod's generic
 * walk. Anything it is not sure about (a wrong or unusual shape) yields undefined and goes through
 * the schema, which then either accepts it or names the wrong fields. test/venue/parse-order-fast
 * checks the two agree.
 */
export function readOrderRecord(raw: unknown): Order | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const id = r.order_id !== undefined ? r.order_id : r.orderId;
  const orderId = typeof id === 'number' ? (Number.isSafeInteger(id) ? id : undefined) : typeof id === 'string' && /^-?\d+$/.test(id) ? Number(id) : undefined;
  if (orderId === undefined) return undefined;
  const cid = r.client_order_id !== undefined ? r.client_order_id : r.clientOrderId;
  if (cid !== undefined && cid !== null && typeof cid !== 'string') return undefined;
  const { market, side, type, timestamp, postOnly, ioc, rpi, stp, status } = r;
  if (typeof market !== 'string' || market.length === 0 || (side !== 'buy' && side !== 'sell') || typeof type !== 'string') return undefined;
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return undefined;
  if (!optionalBoolean(postOnly) || !optionalBoolean(ioc) || !optionalBoolean(rpi)) return undefined;
  if (status !== undefined && typeof status !== 'string') return undefined;
  if (stp !== undefined && stp !== '' && toStpMode(stp) === undefined) return undefined;
  const amount = decimal(r.amount);
  const price = decimal(r.price);
  // a fresh order's left equals its amount: one parse for both (Decimals are immutable); Object.is, since a numeric
  // -0 beside 0 are === yet parse to Decimals of opposite sign
  const left = Object.is(r.left, r.amount) ? amount : decimal(r.left);
  const dealStock = decimal(r.deal_stock !== undefined ? r.deal_stock : r.dealStock);
  const dealMoney = decimal(r.deal_money !== undefined ? r.deal_money : r.dealMoney);
  const dealFee = decimal(r.deal_fee !== undefined ? r.deal_fee : r.dealFee);
  if (amount === undefined || price === undefined || left === undefined || dealStock === undefined || dealMoney === undefined || dealFee === undefined)
    return undefined;
  const act = r.activation_price !== undefined ? r.activation_price : r.activationPrice;
  const activationPrice = act === undefined ? undefined : decimal(act);
  if (act !== undefined && activationPrice === undefined) return undefined;
  const order: Order = {
    orderId,
    clientOrderId: cid ?? '',
    market,
    side,
    kind: orderKindOfType(type),
    timestamp,
    amount,
    price,
    left,
    dealStock,
    dealMoney,
    dealFee,
    postOnly: (postOnly as boolean | undefined) ?? false,
    ioc: (ioc as boolean | undefined) ?? false,
    rpi: (rpi as boolean | undefined) ?? false,
    stp: toStpMode(stp) ?? 'no',
    status: status ?? '',
  };
  // no spread on the common path: it would build every order through the slow generic copy
  return activationPrice === undefined ? order : { ...order, activationPrice };
}

/** Decimals are immutable, so the zeros of a fresh order (deals, fee) can share one instance. */
function decimal(v: unknown): Decimal | undefined {
  return v === '0' ? ZERO : parseDecimal(v);
}

function optionalBoolean(v: unknown): boolean {
  return v === undefined || typeof v === 'boolean';
}

/** One order record (order/new, order/stop_limit, order/cancel), either dialect, into the domain Order. */
export function parseOrder(raw: unknown, endpoint = 'order'): Order {
  return readOrderRecord(raw) ?? parseShape(wireOrderSchema, raw, endpoint, 'order record');
}

/** The open-orders list: an array of order records. */
export function parseOrders(raw: unknown, endpoint = 'orders'): Order[] {
  if (Array.isArray(raw)) {
    const orders: Order[] = [];
    for (const item of raw) {
      const order = readOrderRecord(item);
      if (order === undefined) return parseShape(z.array(wireOrderSchema), raw, endpoint, 'list of order records');
      orders.push(order);
    }
    return orders;
  }
  return parseShape(z.array(wireOrderSchema), raw, endpoint, 'list of order records');
}
