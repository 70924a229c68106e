import type { Order } from '../model/order.js';
import type { TradingApi } from '../venue/trading-api.js';

/**
 * Fetches every open order of the account in `market`, paging while pages are full, deduplicated by order id (an
 * order filled between two pages shifts the rest up: it may then be missed in this snapshot and is seen next poll).
 * The one open-orders fetch: the runtime's poll, reconcile, restore, the stop sequence and the shutdown cancel all
 * read the venue's open orders through it.
 *
 * A chain of reactions on the pages' promises, not an async loop (the runtime polls it every few seconds): the answer
 * settles in the very reaction to the last page, as the loop's return did, and each next page is asked for in the
 * reaction to the one before, as the loop's await resumed; the first page is asked for at the call. So the answer
 * settles exactly as many microtask turns after each page as the loop's did, for the callers' order of work.
 */
export function fetchAllOpenOrders(api: TradingApi, market: string, pageSize = 100, maxPages = 50): Promise<Order[]> {
  const limit = Math.min(100, Math.max(1, pageSize));
  // the loop's body never ran: its promise was fulfilled at the call
  if (!(maxPages > 0)) return Promise.resolve([]);
  return new Promise<Order[]>((resolve, reject) => {
    const byId = new Map<number, Order>();
    let page = 0;
    const take = (orders: Order[]): void => {
      try {
        // the usual answer, one short page without an id twice: the deduplicated list is the page itself, copied
        if (page === 0 && orders.length < limit && distinctIds(orders)) {
          resolve(orders.slice());
          return;
        }
        for (const order of orders) byId.set(order.orderId, order);
        page += 1;
        if (orders.length < limit || page >= maxPages) resolve([...byId.values()]);
        else api.openOrders({ market, limit, offset: page * limit }).then(take, reject);
      } catch (error) {
        // what the loop threw (the api failing to make a request) rejected its promise in the same turn
        reject(error);
      }
    };
    // thrown here (at the call), it rejects the promise at once, as the async function's did
    api.openOrders({ market, limit, offset: 0 }).then(take, reject);
  });
}

/** True when no order id is on the page twice (asked of short pages only: pairs compared, no set made). */
function distinctIds(orders: readonly Order[]): boolean {
  const n = orders.length;
  if (n > 8) return false;
  for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) if (orders[i]!.orderId === orders[j]!.orderId) return false;
  return true;
}
