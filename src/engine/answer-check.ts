import type { Decimal } from '../model/decimal.js';
import { cmp } from '../model/decimal-compare.js';
import type { Deal, Order } from '../model/order.js';
import { dealDefects, orderRecordDefects } from '../venue/plausible.js';
import type { TrackedOrder } from './order-tracker.js';

/** What the engine asked for (or knows) of one order: the fields an answer about it must repeat. */
export type AskedOrder = Pick<TrackedOrder, 'clientOrderId' | 'market' | 'side' | 'kind' | 'price' | 'amount' | 'activationPrice' | 'orderId'>;

/**
 * Why a venue's order record cannot be taken as a fact about the order we asked for: its own defects (see
 * venue/plausible.ts) and every field that contradicts the request (market, side, type, amount, price, activation
 * price, client order id) or what the engine already knows (a different venue order id). Empty = consistent. An
 * answer with any of these is malformed: the order's outcome is UNKNOWN and reconciled, nothing of it journalled.
 */
export function orderAnswerProblems(asked: AskedOrder, venue: Order): string[] {
  const out = orderRecordDefects(venue);
  if (venue.clientOrderId !== asked.clientOrderId) out.push(`client order id '${venue.clientOrderId}', asked '${asked.clientOrderId}'`);
  if (venue.market !== asked.market) out.push(`market ${venue.market}, asked ${asked.market}`);
  if (venue.side !== asked.side) out.push(`side ${venue.side}, asked ${asked.side}`);
  if (venue.kind !== asked.kind) out.push(`kind '${venue.kind}', asked '${asked.kind}'`);
  if (!sameValue(venue.amount, asked.amount)) out.push(`amount ${venue.amount.toFixed()}, asked ${asked.amount.toFixed()}`);
  if (!sameValue(venue.price, asked.price)) out.push(`price ${venue.price.toFixed()}, asked ${asked.price.toFixed()}`);
  if (asked.activationPrice !== undefined && venue.activationPrice !== undefined && !sameValue(venue.activationPrice, asked.activationPrice)) {
    out.push(`activation price ${venue.activationPrice.toFixed()}, asked ${asked.activationPrice.toFixed()}`);
  }
  if (asked.orderId !== undefined && venue.orderId !== asked.orderId) out.push(`order id ${venue.orderId}, known ${asked.orderId}`);
  return out;
}

/**
 * Why a deal cannot belong to the order it names: its own defects, a market, side or venue order id other than the
 * order's, or a price on the wrong side of the order's limit (a buy never executes above its limit, a sell never
 * below). Overfills are judged separately (they depend on the other deals: see HeldDeals).
 */
export function dealAgainstOrder(order: AskedOrder, deal: Deal): string[] {
  const out = dealDefects(deal);
  if (deal.market !== '' && deal.market !== order.market) out.push(`market ${deal.market}, the order's is ${order.market}`);
  if (deal.side !== order.side) out.push(`side ${deal.side}, the order's is ${order.side}`);
  if (order.orderId !== undefined && deal.orderId !== order.orderId) out.push(`order id ${deal.orderId}, the order's is ${order.orderId}`);
  if (out.length === 0) {
    const beyond = order.side === 'buy' ? deal.price.gt(order.price) : deal.price.lt(order.price);
    if (beyond) out.push(`price ${deal.price.toFixed()} is beyond the order's limit ${order.price.toFixed()}`);
  }
  return out;
}

/**
 * `a.eq(b)` without decimal.js's copy of `b` (decimal-compare.ts; NaN equals nothing, as there). The very same
 * Decimal (an answer repeating the request's own value, as the backtest's venue does) is equal unless it is NaN.
 */
function sameValue(a: Decimal, b: Decimal): boolean {
  return a === b ? !a.isNaN() : cmp(a, b) === 0;
}
