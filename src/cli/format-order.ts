import type { Order } from '../model/order.js';
import { formatRecord, formatTable } from './print-output.js';

/** One order as key/value lines (after order, stop-limit, cancel). */
export function formatOrder(o: Order): string {
  return formatRecord([
    ['order id', o.orderId],
    ['client id', o.clientOrderId === '' ? '-' : o.clientOrderId],
    ['market', o.market],
    ['side', o.side],
    ['kind', o.kind],
    ['price', o.price],
    ...(o.activationPrice !== undefined ? ([['activation price', o.activationPrice]] as const) : []),
    ['amount', o.amount],
    ['left', o.left],
    ['filled (stock)', o.dealStock],
    ['filled (money)', o.dealMoney],
    ['fee', o.dealFee],
    ['flags', [o.postOnly && 'post-only', o.ioc && 'ioc', o.rpi && 'rpi'].filter(Boolean).join(', ') || '-'],
    ['stp', o.stp],
    ['status', o.status || '-'],
    ['created', new Date(o.timestamp * 1000).toISOString()],
  ]);
}

export function formatOrders(orders: readonly Order[]): string {
  return formatTable(
    ['ORDER ID', 'CLIENT ID', 'MARKET', 'SIDE', 'KIND', 'PRICE', 'AMOUNT', 'LEFT', 'STATUS'],
    orders.map((o) => [o.orderId, o.clientOrderId || '-', o.market, o.side, o.kind, o.price, o.amount, o.left, o.status || '-']),
  );
}
