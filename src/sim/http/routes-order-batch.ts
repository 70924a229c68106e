import { fmt } from '../../model/decimal.js';
import type { ExecutedOrder, ExecutedOrderStatus } from '../../model/executed-order.js';
import { MSG } from '../../rules/index.js';
import {
  BULK_MAX_ORDERS,
  type BulkOrderItemResult,
  type ContractExecutedOrder,
  type Dialect,
  type ExchangeExecutedOrder,
  type OrderHistoryResponse,
  type PrivateErrorBody,
  type WireOrderRecord,
  WIRE_ORDER_TYPE,
} from '../../venue/wire.js';
import { readClientOrderId } from './dialect.js';
import { json, validationFailed, type SimReply } from './error-bodies.js';
import { ErrorsMap, readInt, readString } from './request-fields.js';
import type { PrivateHandler, RouteContext } from './route-context.js';
import { orderNew } from './routes-order-create.js';

/**
 * order/bulk, order/cancel/all and trade-account/order/history (shapes and what they rest on:
 * src/venue/wire/order-batch.ts). Request-level problems answer 422 like the order endpoints
 * (31 for an unknown market, 30 for anything else).
 */

/**
 * Each item goes through order/new's own handler, so it meets exactly the rules, balance checks and
 * client-order-id uniqueness of a single order (two items with one client id: the second gets 36).
 */
export const orderBulk: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  const orders = body['orders'];
  if (orders === undefined || orders === null || (Array.isArray(orders) && orders.length === 0)) errors.add('orders', MSG.required('orders'));
  else if (!Array.isArray(orders)) errors.add('orders', 'The orders must be an array.');
  else if (orders.length > BULK_MAX_ORDERS) errors.add('orders', `The orders may not have more than ${BULK_MAX_ORDERS} items.`);
  const stopOnFail = body['stopOnFail'];
  if (stopOnFail !== undefined && stopOnFail !== null && typeof stopOnFail !== 'boolean')
    errors.add('stopOnFail', 'The stop on fail field must be true or false.');
  if (!errors.empty) return validationFailed(422, 30, errors.errors);
  const out: BulkOrderItemResult[] = [];
  let accepted = false;
  for (const item of orders as unknown[]) {
    const reply: SimReply =
      item !== null && typeof item === 'object' && !Array.isArray(item)
        ? orderNew(ctx, account, item as Record<string, unknown>)
        : validationFailed(422, 30, { orders: ['Each order must be an object.'] });
    if (reply.status === 200) {
      accepted = true;
      out.push({ result: reply.body as WireOrderRecord, error: null });
    } else {
      out.push({ result: null, error: reply.body as PrivateErrorBody });
      if (stopOnFail === true) break;
    }
  }
  return json(200, out, accepted);
};

/** `market` optional (every market when absent); `type` an optional array of spot / margin / futures. */
export const orderCancelAll: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  const market = optionalMarket(ctx, body['market'], errors);
  const type = body['type'];
  const kinds = ['spot', 'margin', 'futures'];
  if (type !== undefined && type !== null && !(Array.isArray(type) && type.every((t) => kinds.includes(t as string)))) {
    errors.add('type', 'The type must be an array of spot, margin, futures.');
  }
  if (!errors.empty) return reject(errors);
  // The sim has spot orders only: a `type` without `spot` cancels nothing.
  if (!Array.isArray(type) || type.length === 0 || type.includes('spot')) ctx.exchange.cancelAll(account.id, market);
  return json(200, []);
};

const STATUSES: readonly ExecutedOrderStatus[] = ['ALL', 'FILLED', 'CANCELED', 'PARTIALLY_FILLED'];

export const orderHistory: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  const market = optionalMarket(ctx, body['market'], errors);
  const orderId = errors.take('orderId', readInt(body['orderId'] ?? body['order_id'], 'order id', 1, Number.MAX_SAFE_INTEGER));
  const clientOrderId = errors.take('clientOrderId', readString(readClientOrderId(body), 'client order id'));
  const rawStatus = body['status'];
  if (rawStatus !== undefined && rawStatus !== null && !STATUSES.includes(rawStatus as ExecutedOrderStatus)) {
    errors.add('status', `The selected status is invalid.`);
  }
  const startDate = errors.take('startDate', readInt(body['startDate'], 'start date', 0, Number.MAX_SAFE_INTEGER));
  const endDate = errors.take('endDate', readInt(body['endDate'], 'end date', 0, Number.MAX_SAFE_INTEGER));
  const limit = errors.take('limit', readInt(body['limit'], 'limit', 1, 500, 50));
  const offset = errors.take('offset', readInt(body['offset'], 'offset', 0, 10_000, 0));
  if (!errors.empty || limit === undefined || offset === undefined) return reject(errors);
  // A single-order lookup (orderId wins over clientOrderId) ignores the status and date filters, as the venue's docs say.
  const lookup = orderId !== undefined || (clientOrderId !== undefined && clientOrderId !== '');
  const list = ctx.exchange.orderHistory(account.id, {
    ...(market !== undefined ? { market } : {}),
    ...(orderId !== undefined ? { orderId } : clientOrderId !== undefined && clientOrderId !== '' ? { clientOrderId } : {}),
    ...(!lookup && rawStatus !== undefined && rawStatus !== null ? { status: rawStatus as ExecutedOrderStatus } : {}),
    ...(!lookup && startDate !== undefined ? { startDate } : {}),
    ...(!lookup && endDate !== undefined ? { endDate } : {}),
    limit,
    offset,
  });
  if (orderId === undefined && clientOrderId !== undefined && clientOrderId !== '' && list.length === 0) {
    return validationFailed(422, 30, { clientOrderId: ['OrderHistory was not found.'] });
  }
  const grouped: OrderHistoryResponse = {};
  for (const o of list) (grouped[o.market] ??= []).push(executedRecord(o, ctx.dialect));
  return json(200, grouped);
};

/** The history record in the dialect's spelling (ids and deal fields, as the other order records). */
export function executedRecord(o: ExecutedOrder, dialect: Dialect): ExchangeExecutedOrder | ContractExecutedOrder {
  const common = {
    id: o.orderId,
    market: o.market,
    side: o.side,
    type: WIRE_ORDER_TYPE[o.kind],
    amount: fmt(o.amount),
    price: fmt(o.price),
    ctime: o.timestamp,
    ftime: o.finishedAt,
    makerFee: fmt(o.makerFee),
    takerFee: fmt(o.takerFee),
    postOnly: o.postOnly,
    ioc: o.ioc,
    status: o.status,
    feeAsset: o.feeAsset,
    stp: o.stp,
    rpi: o.rpi,
  };
  if (dialect === 'exchange') {
    return { ...common, clientOrderId: o.clientOrderId, dealFee: fmt(o.dealFee), dealStock: fmt(o.dealStock), dealMoney: fmt(o.dealMoney) };
  }
  return { ...common, client_order_id: o.clientOrderId, deal_fee: fmt(o.dealFee), deal_stock: fmt(o.dealStock), deal_money: fmt(o.dealMoney) };
}

function optionalMarket(ctx: RouteContext, value: unknown, errors: ErrorsMap): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && ctx.exchange.markets.has(value)) return value;
  errors.add('market', MSG.marketNotAvailable);
  return undefined;
}

/** 422 with code 31 when the market is the problem, 30 otherwise. */
function reject(errors: ErrorsMap): SimReply {
  return validationFailed(422, errors.errors['market'] !== undefined ? 31 : 30, errors.errors);
}
