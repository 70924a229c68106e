import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/model/order.js';
import { fetchAllOpenOrders } from '../../src/streams/fetch-open-orders.js';
import type { OpenOrdersQuery, TradingApi } from '../../src/venue/trading-api.js';
import { makeOrder } from './fake-api.js';

/** fetchAllOpenOrders as it was, an async loop: the reference for the answer and for when it settles. */
async function loopFetch(api: TradingApi, market: string, pageSize = 100, maxPages = 50): Promise<Order[]> {
  const limit = Math.min(100, Math.max(1, pageSize));
  const byId = new Map<number, Order>();
  for (let page = 0; page < maxPages; page++) {
    const orders = await api.openOrders({ market, limit, offset: page * limit });
    for (const order of orders) byId.set(order.orderId, order);
    if (orders.length < limit) break;
  }
  return [...byId.values()];
}

type Failure = { readonly page: number; readonly how: 'reject' | 'throw' } | undefined;

/**
 * Runs one fetch against a venue of `ids` (pages answered on the microtask queue, `delays[i]` turns late), next to a
 * counter of microtask turns: the turns at which each page was asked for and at which the answer settled.
 */
async function run(fetch: typeof loopFetch, ids: readonly number[], pageSize: number, maxPages: number, delays: readonly number[], failure: Failure) {
  let turn = 0;
  let counting = true;
  const count = (): void => {
    if (!counting) return;
    turn += 1;
    queueMicrotask(count);
  };
  const asked: string[] = [];
  const later = <T>(n: number, f: () => T): Promise<T> => (n === 0 ? Promise.resolve().then(f) : Promise.resolve().then(() => later(n - 1, f)));
  let calls = 0;
  const api = {
    openOrders: (q: OpenOrdersQuery = {}) => {
      const page = calls++;
      asked.push(`${turn}:${q.offset}:${q.limit}`);
      if (failure?.page === page && failure.how === 'throw') throw new Error(`no request ${page}`);
      const orders = ids.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 50)).map((id) => makeOrder(id));
      return later(delays[page % delays.length]!, () => {
        if (failure?.page === page) throw new Error(`page ${page} failed`);
        return orders;
      });
    },
  } as unknown as TradingApi;
  queueMicrotask(count);
  let outcome: string;
  try {
    const orders = await fetch(api, 'BTC_USDT', pageSize, maxPages);
    outcome = `${turn}:ok:${orders.map((o) => o.orderId).join(',')}`;
  } catch (error) {
    outcome = `${turn}:error:${(error as Error).message}`;
  }
  counting = false;
  return { asked, outcome };
}

describe('fetchAllOpenOrders', () => {
  it('property (seeded): the same answer, pages asked for and settled at the same microtask turns as the async loop', async () => {
    await fc.assert(
      fc.asyncProperty(
        // ids with repeats (an order seen on two pages), pages of 1-4, a page limit (0 too), late pages, a failure
        fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 14 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
        fc.option(fc.record({ page: fc.integer({ min: 0, max: 4 }), how: fc.constantFrom<'reject' | 'throw'>('reject', 'throw') }), { nil: undefined }),
        async (ids, pageSize, maxPages, delays, failure) => {
          const chained = await run(fetchAllOpenOrders, ids, pageSize, maxPages, delays, failure);
          const looped = await run(loopFetch, ids, pageSize, maxPages, delays, failure);
          expect(chained).toEqual(looped);
        },
      ),
      { numRuns: 1500, seed: 33 },
    );
  });
});
