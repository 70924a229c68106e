import type { OrderBook } from '../../model/book.js';
import type { Deal, Order } from '../../model/order.js';
import type { SimExchange } from '../exchange.js';
import type { PublicBookOptions } from '../public-book.js';
import type { CancelBy, DealsFilter, LimitOrderInput, OpenOrdersFilter, PlaceResult, StopLimitInput } from '../sim-types.js';
import type { Tell, VenueLies } from './venue-lies.js';

/**
 * The exchange as the route handlers see it while the venue lies: every call goes to the real exchange (which
 * acts and keeps the truth), and the few whose RESULTS reach an answer are rewritten on the way out: open orders
 * (hidden ones left out, before paging, so pages stay full; impossible records), deals (corrupted, duplicated),
 * order creation and cancel results, the order book. The handlers stay truthful code; order history, balances,
 * kill switches and everything else answer the truth. One view per request (it carries the request's time).
 */
export function lyingExchange(exchange: SimExchange, lies: VenueLies, nowMs: number, tell: Tell): SimExchange {
  const otherMarket = (market: string): string => {
    for (const name of exchange.markets.keys()) if (name !== market) return name;
    return `${market}X`;
  };
  const accepted = (accountId: string, result: PlaceResult): PlaceResult =>
    result.ok ? { ok: true, order: lies.accepted(accountId, result.order, nowMs, otherMarket(result.order.market), tell) } : result;

  const overrides: Partial<Record<keyof SimExchange, unknown>> = {
    openOrders(accountId: string, f: OpenOrdersFilter = {}): Order[] {
      const offset = f.offset ?? 0;
      const limit = f.limit ?? 50;
      const all = exchange.openOrders(accountId, { ...f, offset: 0, limit: Number.MAX_SAFE_INTEGER });
      const visible = all.filter((o) => {
        const hidden = lies.isHidden(accountId, o, nowMs);
        if (hidden) tell('lie:hiddenOpenOrders');
        return !hidden;
      });
      return visible.slice(offset, offset + limit).map((o) => lies.record(accountId, o, nowMs, otherMarket(o.market), tell));
    },
    deals(accountId: string, f: DealsFilter = {}): Deal[] {
      const offset = f.offset ?? 0;
      const limit = f.limit ?? 100;
      // duplicates only add records: the true deals up to the page's end are enough to fill it
      const truth = exchange.deals(accountId, { ...f, offset: 0, limit: offset + limit });
      return lies.deals(accountId, truth, nowMs, tell).slice(offset, offset + limit);
    },
    placeLimit(accountId: string, o: LimitOrderInput): PlaceResult {
      return accepted(accountId, exchange.placeLimit(accountId, o));
    },
    placeStopLimit(accountId: string, o: StopLimitInput): PlaceResult {
      return accepted(accountId, exchange.placeStopLimit(accountId, o));
    },
    cancel(accountId: string, market: string, by: CancelBy): Order | undefined {
      const cancelled = exchange.cancel(accountId, market, by);
      return cancelled === undefined ? undefined : lies.record(accountId, cancelled, nowMs, otherMarket(cancelled.market), tell);
    },
    book(market: string, o: PublicBookOptions = {}): OrderBook {
      return lies.book(market, `${o.limit ?? ''}|${o.level ?? ''}`, exchange.book(market, o), nowMs, tell);
    },
  };

  return new Proxy(exchange, {
    get(target, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof SimExchange];
      // bound to the real exchange: its methods write its own fields (sequences, books), never the proxy's
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
