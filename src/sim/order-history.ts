import type { ExecutedOrder, ExecutedOrderStatus } from '../model/executed-order.js';
import type { Market } from '../model/market.js';
import { type SimOrder, toOrder } from './sim-order.js';

/** Filters of the executed-orders history (already validated by the HTTP layer). */
export interface OrderHistoryFilter {
  readonly market?: string;
  readonly orderId?: number;
  readonly clientOrderId?: string;
  readonly status?: ExecutedOrderStatus;
  /** Unix seconds, inclusive, on the finish time. */
  readonly startDate?: number;
  readonly endDate?: number;
  /** 1-500. */
  readonly limit: number;
  readonly offset: number;
}

/**
 * The account's executed orders, newest finished first: finished orders (filled, or cancelled after part of
 * it traded) that dealt something, as the venue's "history of fully and partially executed orders" says; a
 * cancelled order that never traded is not in it. The sim keeps finished orders up to its history bound.
 */
export function queryOrderHistory(finished: Iterable<SimOrder>, f: OrderHistoryFilter, scale: number, markets: ReadonlyMap<string, Market>): ExecutedOrder[] {
  const out: ExecutedOrder[] = [];
  let skipped = 0;
  for (const o of finished) {
    if (out.length >= f.limit) break;
    if (o.leftU === o.amountU) continue; // nothing executed
    if (f.market !== undefined && o.market !== f.market) continue;
    if (f.orderId !== undefined && o.id !== f.orderId) continue;
    if (f.clientOrderId !== undefined && o.clientOrderId !== f.clientOrderId) continue;
    if (f.status !== undefined && f.status !== 'ALL' && o.status !== f.status) continue;
    const at = o.finishedAt ?? o.timestamp;
    if (f.startDate !== undefined && at < f.startDate) continue;
    if (f.endDate !== undefined && at >= f.endDate + 1) continue;
    if (skipped < f.offset) {
      skipped++;
      continue;
    }
    const market = markets.get(o.market);
    if (market === undefined) continue;
    out.push({ ...toOrder(o, scale), finishedAt: at, makerFee: market.makerFee, takerFee: market.takerFee, feeAsset: market.money });
  }
  return out;
}
