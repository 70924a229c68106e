import type { Order } from '../model/order.js';
import type { TradingApi } from '../venue/trading-api.js';

/**
 * Fetches every open order of the account in `market`, paging while pages are full, deduplicated by order id (an
 * order filled between two pages shifts the rest up: it may then be missed in this snapshot and is seen next poll).
 * The one open-orders fetch: the runtime's poll, reconcile, restore, the stop sequence and the shutdown cancel all
 * read the venue's open orders through it.
 */
export async function fetchAllOpenOrders(api: TradingApi, market: string, pageSize = 100, maxPages = 50): Promise<Order[]> {
  const limit = Math.min(100, Math.max(1, pageSize));
  const byId = new Map<number, Order>();
  for (let page = 0; page < maxPages; page++) {
    const orders = await api.openOrders({ market, limit, offset: page * limit });
    for (const order of orders) byId.set(order.orderId, order);
    if (orders.length < limit) break;
  }
  return [...byId.values()];
}
