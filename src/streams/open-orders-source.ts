import { shareReplay, type Observable, type SchedulerLike } from 'rxjs';
import type { Order } from '../model/order.js';
import type { TradingApi } from '../venue/trading-api.js';
import { poll, type PollOptions } from './poll.js';

export interface OpenOrdersSourceOptions extends Pick<PollOptions, 'backoff' | 'onError'> {
  readonly periodMs: number;
  /** Page size, <= 100 (the venue's cap). Default 100. */
  readonly pageSize?: number;
  /** At most this many pages per poll. Default 50. */
  readonly maxPages?: number;
}

/**
 * Fetches every open order of the account in `market`, paging while pages are full, deduplicated by order id (an
 * order filled between two pages shifts the rest up: it may then be missed in this snapshot and is seen next poll).
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

/** Snapshots of all the account's open orders in `market`, polled; shared (refCount), latest replayed. */
export function openOrdersSource(
  api: TradingApi,
  market: string,
  options: OpenOrdersSourceOptions,
  scheduler: SchedulerLike,
): Observable<Order[]> {
  return poll(() => fetchAllOpenOrders(api, market, options.pageSize, options.maxPages), {
    periodMs: options.periodMs,
    scheduler,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
}
