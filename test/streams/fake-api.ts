// A test double of our own TradingApi interface (allowed: no mocking of got or of our modules). Promises resolve at
// once; state is plain arrays the tests mutate.
import type { Balances } from '../../src/model/balance.js';
import type { OrderBook } from '../../src/model/book.js';
import { D } from '../../src/model/decimal.js';
import type { Deal, Order } from '../../src/model/order.js';
import type { DealsQuery, OpenOrdersQuery, OrderBookQuery, TradingApi } from '../../src/venue/trading-api.js';

export interface FakeApi extends TradingApi {
  /** Calls per method. */
  readonly calls: Record<string, number>;
  /** Query of every call per method. */
  readonly queries: Record<string, unknown[]>;
  /** Deals of the account, newest first (as the venue returns them). */
  deals_: Deal[];
  openOrders_: Order[];
  balances_: Balances;
  bookTimestamp: number;
  /** When set, the next calls of these methods reject with this error. */
  failing: Map<string, Error>;
}

export function makeDeal(id: number, time: number, market = 'BTC_USDT'): Deal {
  return {
    id,
    time,
    market,
    side: id % 2 ? 'buy' : 'sell',
    role: 'maker',
    amount: D('0.001'),
    price: D(100),
    deal: D('0.1'),
    fee: D('0.0001'),
    orderId: id,
    clientOrderId: `c-${id}`,
  };
}

export function makeOrder(orderId: number, market = 'BTC_USDT'): Order {
  return {
    orderId,
    clientOrderId: `o-${orderId}`,
    market,
    side: 'buy',
    kind: 'limit',
    timestamp: orderId,
    amount: D(1),
    price: D(100),
    left: D(1),
    dealStock: D(0),
    dealMoney: D(0),
    dealFee: D(0),
    postOnly: false,
    ioc: false,
    rpi: false,
    stp: 'no',
    status: 'NEW',
  };
}

export function fakeApi(): FakeApi {
  const calls: Record<string, number> = {};
  const queries: Record<string, unknown[]> = {};
  const api: FakeApi = {
    calls,
    queries,
    deals_: [],
    openOrders_: [],
    balances_: { BTC: { available: D(1), freeze: D(0) } },
    bookTimestamp: 1,
    failing: new Map(),
    ping: () => call('ping', undefined, () => true),
    markets: () => call('markets', undefined, () => []),
    orderBook: (market: string, query?: OrderBookQuery) =>
      call(
        'orderBook',
        query,
        (): OrderBook => ({
          market,
          timestamp: api.bookTimestamp,
          bids: [{ price: D(99), amount: D(1) }],
          asks: [{ price: D(101), amount: D(1) }],
        }),
      ),
    tradeBalance: () => call('tradeBalance', undefined, () => api.balances_),
    placeLimit: () => Promise.reject(new Error('not used')),
    placeStopLimit: () => Promise.reject(new Error('not used')),
    cancel: () => Promise.reject(new Error('not used')),
    openOrders: (q?: OpenOrdersQuery) =>
      call('openOrders', q, () =>
        api.openOrders_.filter((o) => !q?.market || o.market === q.market).slice(q?.offset ?? 0, (q?.offset ?? 0) + (q?.limit ?? 50)),
      ),
    deals: (q?: DealsQuery) =>
      call('deals', q, () => api.deals_.filter((d) => !q?.market || d.market === q.market).slice(q?.offset ?? 0, (q?.offset ?? 0) + (q?.limit ?? 50))),
  };
  function call<T>(name: string, query: unknown, result: () => T): Promise<T> {
    calls[name] = (calls[name] ?? 0) + 1;
    (queries[name] ??= []).push(query);
    const failure = api.failing.get(name);
    return failure ? Promise.reject(failure) : Promise.resolve(result());
  }
  return api;
}
