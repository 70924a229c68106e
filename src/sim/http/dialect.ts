import { fmt } from '../../model/decimal.js';
import type { Deal, Order } from '../../model/order.js';
import { WIRE_ORDER_TYPE, type ContractOrderRecord, type Dialect, type ExchangeOrderRecord, type WireDeal, type WireOrderRecord } from '../../venue/wire.js';

/**
 * The two field-name dialects (exchange-facts §8). Answers go out in the configured spelling;
 * requests are read in either, so clients written for the live exchange work unchanged.
 */

/** Reads the client order id from either spelling (contract `client_order_id`, live `clientOrderId`). */
export function readClientOrderId(body: Record<string, unknown>): unknown {
  return body['client_order_id'] !== undefined ? body['client_order_id'] : body['clientOrderId'];
}

/** The order record in the dialect's spelling; keys in the contract table's order. */
export function orderRecord(order: Order, dialect: Dialect): WireOrderRecord {
  const activation = order.activationPrice === undefined ? {} : { activation_price: fmt(order.activationPrice) };
  if (dialect === 'exchange') {
    const record: ExchangeOrderRecord = {
      orderId: order.orderId,
      clientOrderId: order.clientOrderId,
      market: order.market,
      side: order.side,
      type: WIRE_ORDER_TYPE[order.kind],
      timestamp: order.timestamp,
      dealMoney: fmt(order.dealMoney),
      dealStock: fmt(order.dealStock),
      amount: fmt(order.amount),
      left: fmt(order.left),
      dealFee: fmt(order.dealFee),
      price: fmt(order.price),
      ...activation,
      postOnly: order.postOnly,
      ioc: order.ioc,
      status: order.status,
      stp: order.stp,
      positionSide: 'BOTH',
      rpi: order.rpi,
    };
    return record;
  }
  const record: ContractOrderRecord = {
    order_id: order.orderId,
    client_order_id: order.clientOrderId,
    market: order.market,
    side: order.side,
    type: WIRE_ORDER_TYPE[order.kind],
    timestamp: order.timestamp,
    deal_money: fmt(order.dealMoney),
    deal_stock: fmt(order.dealStock),
    amount: fmt(order.amount),
    left: fmt(order.left),
    deal_fee: fmt(order.dealFee),
    price: fmt(order.price),
    ...activation,
    postOnly: order.postOnly,
    ioc: order.ioc,
    status: order.status,
    stp: order.stp,
    positionSide: 'BOTH',
    rpi: order.rpi,
  };
  return record;
}

/** Deals have one spelling on the live venue (camelCase ids), used in both dialects. */
export function dealRecord(deal: Deal): WireDeal {
  return {
    id: deal.id,
    time: deal.time,
    side: deal.side,
    role: deal.role === 'maker' ? 1 : 2,
    amount: fmt(deal.amount),
    price: fmt(deal.price),
    deal: fmt(deal.deal),
    fee: fmt(deal.fee),
    orderId: deal.orderId,
    clientOrderId: deal.clientOrderId,
    market: deal.market,
  };
}
